package io.seqsync.bench.http;

import io.seqsync.bench.ProcTable;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where the CPU of a phase went, in cores (CPU seconds per second): the JVM's threads grouped by
 * component (by thread name), the JVM's hidden threads (GC, JIT: process CPU minus its threads),
 * the PostgreSQL and redis-server processes, and everything else on the machine (from /proc/stat).
 * On a 2-core machine the sum is at most 2.
 */
public final class CpuMeter {
  static final List<String> GROUPS = List.of(
      "load generator", "tracer", "reference", "ingress", "sequencer", "projector", "Kafka broker", "JVM GC/JIT", "PostgreSQL",
      "Redis", "other processes");
  private static final double CLOCK_TICKS = ProcTable.CLOCK_TICKS;

  private final String dataDir;
  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
  private final com.sun.management.OperatingSystemMXBean os =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  /** {@code dataDir}: the app's data directory, which the PostgreSQL server's command line names. */
  CpuMeter(String dataDir) {
    this.dataDir = dataDir;
  }

  /** A point in time to measure from. */
  record Mark(long nanos, Map<Long, Long> threadCpu, Map<Long, String> threadNames, long processCpu,
      Map<Long, Long> pgTicks, Map<Long, Long> redisTicks, long machineBusyTicks) {}

  /** Cores used per group between two marks, in {@link #GROUPS} order. */
  record Usage(Map<String, Double> cores, double seconds) {
    double total() {
      return cores.values().stream().mapToDouble(Double::doubleValue).sum();
    }

    double get(String group) {
      return cores.getOrDefault(group, 0.0);
    }
  }

  Mark mark() {
    long nanos = System.nanoTime();
    long processCpu = os.getProcessCpuTime();
    long machine = machineBusyTicks();
    Map<Long, Long> cpu = new HashMap<>();
    Map<Long, String> names = new HashMap<>();
    for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
      if (info == null) {
        continue;
      }
      long time = threads.getThreadCpuTime(info.getThreadId());
      if (time >= 0) {
        cpu.put(info.getThreadId(), time);
        names.put(info.getThreadId(), info.getThreadName());
      }
    }
    // /proc is read last: it takes a while on a busy machine, and the JVM's figures come first.
    return new Mark(nanos, cpu, names, processCpu, processTicks("postgres"), processTicks("redis-server"), machine);
  }

  Usage since(Mark start) {
    Mark end = mark();
    double seconds = (end.nanos - start.nanos) / 1e9;
    Map<String, Long> nanosByGroup = new HashMap<>();
    long threadSum = 0;
    for (Map.Entry<Long, Long> entry : end.threadCpu.entrySet()) {
      long delta = entry.getValue() - start.threadCpu.getOrDefault(entry.getKey(), 0L);
      if (delta <= 0) {
        continue;
      }
      String group = group(end.threadNames.getOrDefault(entry.getKey(), ""));
      nanosByGroup.merge(group, delta, Long::sum);
      threadSum += delta;
    }
    long processDelta = end.processCpu - start.processCpu;
    // The JVM's own threads, which ThreadMXBean does not list: GC and JIT compilers.
    nanosByGroup.put("JVM GC/JIT", Math.max(0, processDelta - threadSum));
    Map<String, Double> cores = new LinkedHashMap<>();
    for (String group : GROUPS) {
      cores.put(group, nanosByGroup.getOrDefault(group, 0L) / 1e9 / seconds);
    }
    double pg = ticks(start.pgTicks, end.pgTicks) / CLOCK_TICKS / seconds;
    double redis = ticks(start.redisTicks, end.redisTicks) / CLOCK_TICKS / seconds;
    cores.put("PostgreSQL", pg);
    cores.put("Redis", redis);
    double machine = start.machineBusyTicks < 0 || end.machineBusyTicks < 0
        ? Double.NaN : (end.machineBusyTicks - start.machineBusyTicks) / CLOCK_TICKS / seconds;
    cores.put("other processes", Double.isNaN(machine) ? 0 : Math.max(0, machine - processDelta / 1e9 / seconds - pg - redis));
    return new Usage(cores, seconds);
  }

  /** The component a thread of this JVM belongs to, by its name. */
  static String group(String name) {
    if (name.startsWith("bench-tracer")) {
      return "tracer";
    }
    if (name.startsWith(ProduceReference.THREADS) || name.endsWith("| " + ProduceReference.THREADS)) {
      return "reference";
    }
    // The benchmark's main thread runs the send schedule.
    if (name.startsWith("bench-") || name.startsWith("HttpClient-") || name.equals("main")) {
      return "load generator";
    }
    if (name.contains("seqsync-sequencer")) {
      return "sequencer";
    }
    // The event projector, the delivery projector (and its group's heartbeat thread), the archive job.
    if (name.contains("seqsync-projector") || name.contains("seqsync-delivery") || name.equals("seqsync-archive")) {
      return "projector";
    }
    if (name.startsWith("qtp") || name.startsWith("JettyServerThreadPool") || name.startsWith("ingress-")
        || name.contains("seqsync-ingress") || name.contains("seqsync-pg")
        || name.startsWith("Javalin") || name.startsWith("HikariPool") || name.startsWith("redis-subscriber-")
        || name.startsWith("push-writer")) {
      return "ingress";
    }
    return "Kafka broker";
  }

  /** Other processes' CPU in cores over the next {@code millis} ms (the JVM's own excluded). */
  double othersCores(long millis) {
    long machine = machineBusyTicks();
    long process = os.getProcessCpuTime();
    long begin = System.nanoTime();
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    double seconds = (System.nanoTime() - begin) / 1e9;
    long machineEnd = machineBusyTicks();
    if (machine < 0 || machineEnd < 0) {
      return 0;
    }
    return Math.max(0, (machineEnd - machine) / CLOCK_TICKS / seconds - (os.getProcessCpuTime() - process) / 1e9 / seconds);
  }

  /** Waits up to {@code maxSeconds} for a second in which other processes use under a quarter core; returns their use. */
  double awaitQuiet(int maxSeconds) {
    long deadline = System.nanoTime() + maxSeconds * 1_000_000_000L;
    double others;
    do {
      others = othersCores(1_000);
    } while (others >= 0.25 && System.nanoTime() < deadline);
    return others;
  }

  /** user + nice + system + irq + softirq + steal ticks of all CPUs, or -1. */
  public static long machineBusyTicks() {
    try {
      String first = Files.readAllLines(Path.of("/proc/stat")).get(0);
      String[] f = first.trim().split("\\s+");
      long busy = 0;
      for (int i : new int[] {1, 2, 3, 6, 7, 8}) {
        if (i < f.length) {
          busy += Long.parseLong(f[i]);
        }
      }
      return busy;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /**
   * utime + stime per pid of this app's processes whose name starts with {@code comm}: those whose command line
   * names {@link #dataDir} (the postmaster), children of this JVM (redis-server), and their
   * children (PostgreSQL's backends). Other copies on the machine are left out.
   */
  Map<Long, Long> processTicks(String comm) {
    Map<Long, ProcTable.Proc> named = new HashMap<>();
    // comm is cut to 15 characters: redis-server-6.2.6-v5-linux-amd64 shows as redis-server-6.
    ProcTable.read().values().stream().filter(proc -> proc.comm().startsWith(comm))
        .forEach(proc -> named.put(proc.pid(), proc));
    long self = ProcessHandle.current().pid();
    Map<Long, Long> ticks = new HashMap<>();
    for (ProcTable.Proc proc : named.values()) {
      boolean root = proc.ppid() == self || (dataDir != null && proc.cmdline().contains(dataDir));
      ProcTable.Proc parent = named.get(proc.ppid());
      boolean child = parent != null && (parent.ppid() == self || (dataDir != null && parent.cmdline().contains(dataDir)));
      if (root || child) {
        ticks.put(proc.pid(), proc.ticks());
      }
    }
    return ticks;
  }

  private static long ticks(Map<Long, Long> start, Map<Long, Long> end) {
    long sum = 0;
    for (Map.Entry<Long, Long> entry : end.entrySet()) {
      sum += Math.max(0, entry.getValue() - start.getOrDefault(entry.getKey(), 0L));
    }
    return sum;
  }
}
