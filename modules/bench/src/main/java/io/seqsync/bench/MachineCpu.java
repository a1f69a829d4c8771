package io.seqsync.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The CPU time all processes of the machine have used (busy = everything but idle and iowait),
 * from Linux's /proc/stat, so that a run can tell how much other processes competed with it.
 */
final class MachineCpu {
  private static final Path PROC_STAT = Path.of("/proc/stat");
  // USER_HZ: /proc/stat counts in 1/100 s on every Linux architecture Java runs on.
  private static final long NANOS_PER_TICK = 10_000_000L;

  private MachineCpu() {}

  /** Busy CPU nanoseconds since boot, summed over all cores; -1 when /proc/stat cannot be read. */
  static long busyNanos() {
    try {
      String[] fields = Files.readAllLines(PROC_STAT).get(0).trim().split("\\s+");
      // cpu user nice system idle iowait irq softirq steal [guest guest_nice: already in user, nice]
      long busy = 0;
      for (int i = 1; i <= Math.min(8, fields.length - 1); i++) {
        if (i != 4 && i != 5) {
          busy += Long.parseLong(fields[i]);
        }
      }
      return busy * NANOS_PER_TICK;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }
}
