package io.seqsync.bench.push;

import io.seqsync.config.LimitsSettings;
import io.seqsync.bench.BenchSupport;
import io.seqsync.app.SeqsyncApp;
import io.seqsync.config.ConfigLoader;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Push benchmark on the whole app in this JVM (embedded Kafka, PostgreSQL, Redis), load in the same
 * JVM:
 * <ol>
 *   <li>send → push latency ({@link PushLatency}): {@code receivers} users each hold one
 *       {@code /v1/stream} WebSocket; an open-loop load of sends into their direct conversations at
 *       fixed rates; latency from each send's due time to the arrival of its
 *       {@code {"type":"message","mode":"push"}} frame; every push counted (missing, duplicates);
 *   <li>memory per idle WebSocket ({@link IdleMemory}): heap (after full GCs) and RSS with N idle
 *       connections open vs closed; then the same N client WebSockets against a stub server that
 *       only answers the upgrade, to separate the client's share.
 * </ol>
 * Markdown on stdout, progress on stderr. See scripts/bench-push and docs/benchmarks.md, "Push latency
 * and WebSocket memory".
 *
 * <p>Options: {@code --rates=200,500 --warmup-s=5 --duration-s=20 --receivers=200 --idle=10000
 * --open-concurrency=64}.
 */
public final class PushBenchmark {
  static final Duration TTL = Duration.ofHours(2);

  private PushBenchmark() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> opts = new HashMap<>();
    for (String arg : args) {
      if (!arg.startsWith("--") || !arg.contains("=")) {
        System.err.println("usage: PushBenchmark [--rates=200,500] [--warmup-s=5] [--duration-s=20] [--receivers=200]"
            + " [--idle=10000] [--open-concurrency=64]");
        System.exit(2);
      }
      opts.put(arg.substring(2, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
    }
    List<Integer> rates = Arrays.stream(opts.getOrDefault("rates", "200,500").split(",")).map(Integer::parseInt).toList();
    int warmupS = Integer.parseInt(opts.getOrDefault("warmup-s", "5"));
    int durationS = Integer.parseInt(opts.getOrDefault("duration-s", "20"));
    int receivers = Integer.parseInt(opts.getOrDefault("receivers", "200"));
    int idleTarget = Integer.parseInt(opts.getOrDefault("idle", "10000"));
    int openConcurrency = Integer.parseInt(opts.getOrDefault("open-concurrency", "64"));
    BenchSupport.quietLogs();

    StringBuilder out = new StringBuilder();
    out.append("Run ").append(Instant.now()).append("; ").append(Runtime.getRuntime().availableProcessors())
        .append(" cores; max heap ").append(Runtime.getRuntime().maxMemory() >> 20).append(" MiB; java ")
        .append(System.getProperty("java.version")).append("; load average at start ").append(BenchSupport.loadAverage())
        .append("\n\n");

    Path dir = Files.createTempDirectory("seqsync-bench-push-");
    ExecutorService httpThreads = Executors.newFixedThreadPool(2, BenchSupport.daemonThreads("bench-push-http-"));
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(httpThreads)
        .connectTimeout(Duration.ofSeconds(5)).build();
    Map<String, String> settings = new HashMap<>(Map.of(
        "data-dir", dir.toString(),
        "kafka.embedded-port", "0",
        "postgres.embedded-port", "0",
        "redis.embedded-port", "0",
        "http.host", "127.0.0.1",
        "http.port", "0"));
    settings.putAll(LimitsSettings.raisedTo(100_000)); // it sends and connects far faster than people
    try (SeqsyncApp app = SeqsyncApp.start(ConfigLoader.of(settings))) {
      int port = app.httpPort();
      System.err.printf("app started; HTTP on %d%n", port);
      double readySeconds = awaitSendable(http, port, app.tokens().mint(4_000_001L, "probe", TTL));
      System.err.printf("first send answered 200 after %.1f s%n", readySeconds);

      // --- 1. send → push latency
      out.append(PushLatency.section(app, http, port, rates, warmupS, durationS, receivers));

      // --- 2. memory per idle WebSocket
      if (idleTarget > 0) {
        out.append(IdleMemory.section(port, idleTarget, openConcurrency, dir));
      }
      out.append("\nLoad average at the end: ").append(BenchSupport.loadAverage()).append('\n');
    } finally {
      BenchSupport.deleteTree(dir);
    }
    System.out.println(out);
    System.out.flush();
    System.exit(0);
  }

  /** Sends probe messages until one is answered 200 (the sequencer's first transaction can take a while). */
  private static double awaitSendable(HttpClient http, int port, String token) throws InterruptedException {
    long began = System.nanoTime();
    for (int attempt = 0; System.nanoTime() - began < TimeUnit.SECONDS.toNanos(120); attempt++) {
      HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
              + "/v1/conversations/d:4000001:4000002/messages"))
          .timeout(Duration.ofSeconds(10))
          .header("Authorization", "Bearer " + token)
          .header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString("{\"clientMsgId\":\"probe-" + attempt
              + "\",\"type\":\"text\",\"content\":\"probe\"}"))
          .build();
      try {
        if (http.send(request, HttpResponse.BodyHandlers.ofString()).statusCode() == 200) {
          break;
        }
      } catch (IOException e) {
        // not yet
      }
      Thread.sleep(500);
    }
    return (System.nanoTime() - began) / 1e9;
  }
}
