package io.seqsync.bench;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import io.seqsync.localstack.TemporaryDirectory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.LoggerFactory;

/** What every benchmark needs around its measurement: quiet logs, named threads, clean-up, the load. */
public final class BenchSupport {
  private BenchSupport() {}

  /** Only warnings from the servers and the app: the benchmark's own output is the report. */
  public static void quietLogs() {
    if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
      for (String name : List.of("io.zonky", "org.eclipse.jetty", "io.javalin", "redis", "com.zaxxer", "org.jdbi",
          "org.apache.kafka", "kafka", "io.seqsync")) {
        context.getLogger(name).setLevel(Level.WARN);
      }
    }
  }

  /** Daemon threads named {@code prefix1}, {@code prefix2}, ... */
  public static ThreadFactory daemonThreads(String prefix) {
    AtomicInteger count = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, prefix + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }

  /** Deletes {@code root} and everything below it, best effort (a temporary directory left behind is said). */
  public static void deleteTree(Path root) {
    try {
      TemporaryDirectory.deleteTree(root);
    } catch (UncheckedIOException e) {
      System.err.println("  (could not delete " + root + ": " + e.getCause().getMessage() + ")");
    }
  }

  /** Sleeps; an interrupt ends the benchmark. */
  public static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  /** The 1, 5 and 15 minute load averages ("?" off Linux). */
  public static String loadAverage() {
    try {
      String[] parts = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return parts[0] + ", " + parts[1] + ", " + parts[2];
    } catch (IOException e) {
      return "?";
    }
  }
}
