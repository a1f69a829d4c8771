package io.seqsync.bench.push;

import io.seqsync.localstack.ChildJvm;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * Memory per idle push WebSocket, server side: this JVM runs the app; a child process
 * ({@link IdleClients}) opens the connections, so this JVM's heap and RSS grow by the server's
 * share alone, and each process stays within its own open-files limit. Measured after full GCs:
 * before, with every connection open and synced, and after the child is killed.
 */
final class IdleMemory {
  private static final long FIRST_IDLE_USER = 5_000_000L;

  record Memory(long heap, long rss) {}

  private IdleMemory() {}

  /** The markdown section for {@code target} idle connections to the app on {@code port}. */
  static String section(int port, int target, int concurrency, Path dir) throws IOException, InterruptedException {
    StringBuilder out = new StringBuilder("### Memory per idle WebSocket connection\n\n");
    Memory base = measure();
    int fdsBefore = fdsOpen();
    try (ChildJvm clients = new ChildJvm(IdleClients.class, List.of("-Xmx2g", "-XX:+UseParallelGC"),
        List.of(Integer.toString(port), Integer.toString(target), Integer.toString(concurrency),
            Long.toString(FIRST_IDLE_USER)), Map.of(), dir.resolve("idle-clients.log"), IdleClients.READY)) {
      clients.start(Duration.ofMinutes(5));
      Map<String, String> report = report(clients.log());
      System.err.println("idle clients: " + report);
      int opened = Integer.parseInt(report.get("opened"));
      Memory open = measure();
      int fdsOpen = fdsOpen();
      clients.kill();
      LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(3)); // the server notices the closed sockets
      Memory closed = measure();
      out.append("Target ").append(target).append(" connections, opened by a separate client process (")
          .append(concurrency).append(" upgrades in flight at most): ").append(opened).append(" opened, ")
          .append(report.get("synced")).append(" received their `sync` frame, in ").append(report.get("seconds"))
          .append(" s; first failure: ").append(report.get("failure")).append(". Server process fds: ")
          .append(fdsBefore).append(" before, ").append(fdsOpen).append(" with the connections open.\n\n");
      out.append("| server process | heap used after full GC | RSS |\n|---|---|---|\n");
      out.append(row("before", base)).append(row(opened + " idle WebSockets open", open))
          .append(row("after the client process died", closed)).append('\n');
      int n = Math.max(1, opened);
      out.append(String.format("- server heap per idle connection: %,.0f B (open − before), %,.0f B (open − after)%n",
          (open.heap - base.heap) / (double) n, (open.heap - closed.heap) / (double) n));
      out.append(String.format("- server RSS per idle connection (open − before): %,.0f B%n",
          (open.rss - base.rss) / (double) n));
    }
    return out.toString();
  }

  // The child's "opened=N synced=M seconds=S failure=F" line.
  private static Map<String, String> report(String log) {
    Map<String, String> report = new HashMap<>();
    for (String line : log.split("\n")) {
      if (line.startsWith("opened=")) {
        for (String pair : line.trim().split(" ")) {
          report.put(pair.substring(0, pair.indexOf('=')), pair.substring(pair.indexOf('=') + 1));
        }
      }
    }
    if (!report.containsKey("opened")) {
      throw new IllegalStateException("the idle clients reported nothing: " + log);
    }
    return report;
  }

  static Memory measure() {
    for (int i = 0; i < 3; i++) {
      System.gc();
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(300));
    }
    return new Memory(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(), rss());
  }

  private static String row(String label, Memory memory) {
    return String.format("| %s | %,.1f MiB | %,.1f MiB |%n", label, memory.heap / 1048576.0, memory.rss / 1048576.0);
  }

  private static long rss() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
        }
      }
    } catch (IOException | NumberFormatException ignored) {
      // not Linux
    }
    return -1;
  }

  private static int fdsOpen() {
    try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      return (int) fds.count();
    } catch (IOException e) {
      return 0;
    }
  }
}
