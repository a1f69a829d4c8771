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

  /**
   * Waits, up to {@code maxWaitMs}, for a {@code windowMs} window in which the rest of the machine
   * (all processes but this one) used less than {@code maxCores} cores. Returns the other
   * processes' average cores in the last window; -1 when /proc/stat cannot be read.
   */
  static double awaitQuiet(double maxCores, long windowMs, long maxWaitMs, com.sun.management.OperatingSystemMXBean os) {
    long deadline = System.nanoTime() + maxWaitMs * 1_000_000;
    double others;
    do {
      long busy = busyNanos();
      long own = os.getProcessCpuTime();
      long start = System.nanoTime();
      BenchSupport.sleep(windowMs);
      long busyAfter = busyNanos();
      if (busy < 0 || busyAfter < 0) {
        return -1;
      }
      others = Math.max(0, busyAfter - busy - (os.getProcessCpuTime() - own)) / (double) (System.nanoTime() - start);
    } while (others >= maxCores && System.nanoTime() < deadline);
    return others;
  }

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
