package io.seqsync.bench.http;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import io.seqsync.bench.CliOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.slf4j.LoggerFactory;

/**
 * The HTTP benchmark of the pull API, on the whole app in this JVM (embedded Kafka, PostgreSQL and
 * Redis; sequencer, projector, ingress), with the load generated in the same JVM:
 * <ol>
 *   <li>send: an open-loop load of {@code POST /v1/conversations/{convId}/messages} at each offered
 *       rate, latency from each request's due time to its {@code 200} (committed seq), once per
 *       {@code sequencer.commit-interval} given (one app start each); with the latency split into
 *       stages by watching the events topic and the announcements ({@link ConfigurationRun},
 *       {@link SendStages});
 *   <li>fetch (first configuration only, {@link FetchPasses}): pages of 50 over HTTP by 64
 *       closed-loop clients, next to the same statement straight through JDBC by 64 threads.
 * </ol>
 * Markdown tables on stdout ({@link HttpReport}), progress on stderr. See docs/benchmarks.md and
 * scripts/bench-http.
 */
public final class HttpBenchmark {
  private HttpBenchmark() {}

  public static void main(String[] args) throws Exception {
    HttpBenchOptions options = CliOptions.parseOrExit(args, HttpBenchOptions::parse, HttpBenchOptions.USAGE);
    quietLogs();
    if (ForkJoinPool.getCommonPoolParallelism() < 2) {
      // Else CompletableFuture runs every default-executor stage on a new thread, and the JDK's
      // HttpClient completes each response through one: a thread per request (scripts/bench-http
      // sets -Djava.util.concurrent.ForkJoinPool.common.parallelism=2).
      System.err.println("  (warning: ForkJoinPool.commonPool() parallelism is "
          + ForkJoinPool.getCommonPoolParallelism() + ": the HTTP client will start a thread per response)");
    }
    KafkaWarnings warnings = KafkaWarnings.install();
    Path root = options.dir().orElse(Files.createTempDirectory("seqsync-bench-http-"));
    long began = System.nanoTime();
    List<ConfigurationRun.Result> configs = new ArrayList<>();
    List<FetchBenchmark.Result> fetches = new ArrayList<>();
    Map<String, String> facts = new HashMap<>();
    try {
      for (int c = 0; c < options.commitIntervals().size(); c++) {
        Duration interval = options.commitIntervals().get(c);
        Path dataDir = root.resolve("c" + c + "-" + HttpBenchOptions.format(interval));
        configs.add(ConfigurationRun.run(options, warnings, dataDir, interval, c == 0 && options.fetch(), fetches, facts));
      }
    } finally {
      if (options.dir().isEmpty()) {
        deleteTree(root);
      }
    }
    HttpReport.print(options, configs, fetches, facts, (System.nanoTime() - began) / 1e9);
    System.exit(0);
  }

  static void quietLogs() {
    if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
      for (String name : List.of("io.zonky", "org.eclipse.jetty", "io.javalin", "redis", "com.zaxxer", "org.jdbi",
          "org.apache.kafka", "kafka", "io.seqsync")) {
        context.getLogger(name).setLevel(Level.WARN);
      }
    }
  }

  static java.util.concurrent.ThreadFactory named(String prefix) {
    AtomicInteger count = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, prefix + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }

  static void deleteTree(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> {
        try {
          Files.deleteIfExists(path);
        } catch (IOException e) {
          // best effort
        }
      });
    } catch (IOException e) {
      System.err.println("  (could not delete " + root + ": " + e.getMessage() + ")");
    }
  }
}
