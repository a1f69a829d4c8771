package io.seqsync.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * CPU time as Linux's /proc shows it, read in one place: the whole machine's busy time
 * (/proc/stat), this JVM's, and a server's (a process, everything below it, and the processes
 * whose command line names a marker, with what is below them). Off Linux every reading is -1.
 */
public final class Cpu {
  // USER_HZ: /proc counts in 1/100 s on every Linux architecture Java runs on.
  private static final long NANOS_PER_TICK = 10_000_000L;
  private static final com.sun.management.OperatingSystemMXBean OS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  private Cpu() {}

  /** This JVM's CPU nanoseconds so far. */
  public static long jvmNanos() {
    return OS.getProcessCpuTime();
  }

  /** Busy CPU nanoseconds of the machine since boot (all but idle and iowait), summed over the cores. */
  public static long machineNanos() {
    try {
      String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
      long busy = 0;
      for (int i = 1; i <= Math.min(8, f.length - 1); i++) {
        busy += i == 4 || i == 5 ? 0 : Long.parseLong(f[i]);
      }
      return busy * NANOS_PER_TICK;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** CPU nanoseconds of process {@code root} and below it, plus those whose command line holds {@code marker}. */
  public static long treeNanos(long root, String marker) {
    Map<Long, long[]> procs = new HashMap<>(); // pid -> {ppid, ticks, marked}
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
      for (Path dir : dirs) {
        try {
          String stat = Files.readString(dir.resolve("stat"));
          String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
          boolean marked = marker != null && new String(Files.readAllBytes(dir.resolve("cmdline"))).replace('\0', ' ')
              .contains(marker);
          procs.put(Long.parseLong(dir.getFileName().toString()),
              new long[] {Long.parseLong(f[1]), Long.parseLong(f[11]) + Long.parseLong(f[12]), marked ? 1 : 0});
        } catch (IOException | RuntimeException ended) {
          // the process ended meanwhile
        }
      }
    } catch (IOException e) {
      return -1;
    }
    long ticks = 0;
    for (Map.Entry<Long, long[]> proc : procs.entrySet()) {
      for (Long at = proc.getKey(); at != null && at > 0; at = procs.containsKey(at) ? procs.get(at)[0] : null) {
        if (at == root || procs.get(at) != null && procs.get(at)[2] == 1) {
          ticks += proc.getValue()[1];
          break;
        }
      }
    }
    return ticks * NANOS_PER_TICK;
  }

  /**
   * Waits up to {@code maxWaitSeconds} for 2 s in which the rest of the machine uses under
   * {@code maxCores}, so that a shared machine's bursts land between runs rather than in them.
   */
  public static void awaitQuiet(double maxCores, long maxWaitSeconds) {
    long deadline = System.nanoTime() + maxWaitSeconds * 1_000_000_000L;
    double others;
    do {
      long machine = machineNanos();
      long own = jvmNanos();
      long start = System.nanoTime();
      BenchSupport.sleep(2_000);
      others = (machineNanos() - machine - (jvmNanos() - own)) / (double) (System.nanoTime() - start);
    } while (machineNanos() >= 0 && others >= maxCores && System.nanoTime() < deadline);
    if (others >= maxCores) {
      System.err.printf("  (other processes still use %.1f cores; running anyway)%n", others);
    }
  }
}
