package io.seqsync.bench.http;

import io.seqsync.bench.BenchSupport;
import io.seqsync.bench.CliOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ForkJoinPool;

/**
 * The HTTP benchmark of the pull API, on the whole app in this JVM (embedded Kafka, PostgreSQL and
 * Redis; sequencer, projector, ingress), with the load generated in the same JVM:
 * <ol>
 *   <li>send: an open-loop load of {@code POST /v1/conversations/{convId}/messages} at each offered
 *       rate, latency from each request's due time to its {@code 200} (committed seq), once per
 *       {@code sequencer.commit-interval} given (one app start each); with the latency split into
 *       stages by watching the events topic and the announcements ({@link ConfigurationRun},
 *       {@link SendStages}); before each rate, the same load against {@link ProduceReference}
 *       (produce to Kafka and answer), the floor measured in the same run;
 *   <li>fetch (first configuration only, {@link FetchPasses}): pages of 50 over HTTP by 64
 *       closed-loop clients, next to the same statement straight through JDBC by 64 threads.
 * </ol>
 * Markdown tables on stdout ({@link HttpReport}), progress on stderr. See docs/benchmarks.md, "HTTP
 * send and fetch", and scripts/bench-http.
 */
public final class HttpBenchmark {
  private HttpBenchmark() {}

  public static void main(String[] args) throws Exception {
    HttpBenchOptions options = CliOptions.parseOrExit(args, HttpBenchOptions::parse, HttpBenchOptions.USAGE);
    BenchSupport.quietLogs();
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
        for (int e = 0; e < options.encryption().size(); e++) {
          boolean encrypted = options.encryption().get(e);
          Path dataDir = root.resolve("c" + c + "-" + HttpBenchOptions.format(interval) + "-e" + e
              + (encrypted ? "" : "-plain"));
          configs.add(ConfigurationRun.run(options, warnings, dataDir, interval, encrypted,
              c == 0 && e == 0 && options.fetch(), fetches, facts));
        }
      }
    } finally {
      if (options.dir().isEmpty()) {
        BenchSupport.deleteTree(root);
      }
    }
    HttpReport.print(options, configs, fetches, facts, (System.nanoTime() - began) / 1e9);
    System.exit(0);
  }
}
