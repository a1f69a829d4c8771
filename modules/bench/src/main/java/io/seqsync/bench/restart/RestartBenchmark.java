package io.seqsync.bench.restart;

import io.seqsync.config.LimitsSettings;
import io.seqsync.bench.BenchSupport;
import io.seqsync.bench.CliOptions;
import io.seqsync.ingress.auth.Tokens;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * scripts/bench-restart: how long sends go unanswered when seqsync is killed (SIGKILL) under load
 * and started again, next to a clean stop and start of the same stack in the same run. The
 * embedded default (one process with its broker, PostgreSQL and Redis) and an instance on servers
 * that keep running (a second app pointed at the first's servers; only it is killed). Afterwards
 * every conversation is paged and checked: seqs 1..N, nothing lost or stored twice.
 */
public final class RestartBenchmark {
  private static final String USAGE = "scripts/bench-restart [--runs=3] [--rate=100] [--conversations=20] [--steady-s=15]"
      + " [--variants=embedded,external] [--restore-sizes=100000,1000000] [--dir=target/bench-restart]";
  private static final Duration ANSWER_TIMEOUT = Duration.ofMinutes(4);

  private final Path appJar;
  private final Path dir;
  private final int runs;
  private final int rate;
  private final int conversations;
  private final int steadySeconds;
  private final String secret = "bench-restart-" + UUID.randomUUID() + UUID.randomUUID();

  private RestartBenchmark(Map<String, String> options) {
    this.appJar = Path.of(options.getOrDefault("app-jar", "modules/app/target/seqsync-app.jar")).toAbsolutePath();
    this.dir = Path.of(options.getOrDefault("dir", "target/bench-restart")).toAbsolutePath();
    this.runs = Integer.parseInt(options.getOrDefault("runs", "3"));
    this.rate = Integer.parseInt(options.getOrDefault("rate", "100"));
    this.conversations = Integer.parseInt(options.getOrDefault("conversations", "20"));
    this.steadySeconds = Integer.parseInt(options.getOrDefault("steady-s", "15"));
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> options = CliOptions.parseOrExit(args, given -> CliOptions.parse(given,
        Set.of("runs", "rate", "conversations", "steady-s", "variants", "restore-sizes", "dir", "app-jar")), USAGE);
    BenchSupport.quietLogs();
    RestartBenchmark bench = new RestartBenchmark(options);
    Files.createDirectories(bench.dir);
    System.out.printf("bench-restart: %d runs, %d sends/s over %d conversations, load average %s, %s%n", bench.runs,
        bench.rate, bench.conversations, BenchSupport.loadAverage(), java.time.Instant.now());
    List<String> variants = List.of(options.getOrDefault("variants", "embedded,external").split(","));
    boolean ok = true;
    if (variants.contains("embedded")) {
      ok &= bench.embedded();
    }
    if (variants.contains("external")) {
      ok &= bench.external();
    }
    String sizes = options.getOrDefault("restore-sizes", "100000,1000000");
    if (!sizes.isBlank() && !sizes.equals("0")) {
      for (String size : sizes.split(",")) {
        RestoreMeasurement.run(bench.dir.resolve("restore-" + size), Long.parseLong(size.trim()));
      }
    }
    System.exit(ok ? 0 : 1);
  }

  private boolean embedded() throws Exception {
    Path base = fresh("embedded");
    Map<String, String> env = commonEnvironment(base.resolve("data"));
    int http = AppProcess.freePort();
    env.putAll(Map.of("SEQSYNC_HTTP_PORT", Integer.toString(http),
        "SEQSYNC_KAFKA_EMBEDDED_PORT", Integer.toString(AppProcess.freePort()),
        "SEQSYNC_POSTGRES_EMBEDDED_PORT", Integer.toString(AppProcess.freePort()),
        "SEQSYNC_REDIS_EMBEDDED_PORT", Integer.toString(AppProcess.freePort())));
    AppProcess app = new AppProcess(appJar, env, base.resolve("app.log"));
    System.out.println("\nembedded default: the app with its broker, PostgreSQL and Redis (" + base + ")");
    return measure(app, http, base);
  }

  private boolean external() throws Exception {
    Path base = fresh("external");
    Map<String, String> ownerEnv = commonEnvironment(base.resolve("owner"));
    int kafka = AppProcess.freePort();
    int postgres = AppProcess.freePort();
    int redis = AppProcess.freePort();
    ownerEnv.putAll(Map.of("SEQSYNC_HTTP_PORT", Integer.toString(AppProcess.freePort()),
        "SEQSYNC_KAFKA_EMBEDDED_PORT", Integer.toString(kafka),
        "SEQSYNC_POSTGRES_EMBEDDED_PORT", Integer.toString(postgres),
        "SEQSYNC_REDIS_EMBEDDED_PORT", Integer.toString(redis)));
    AppProcess owner = new AppProcess(appJar, ownerEnv, base.resolve("owner.log"));
    owner.start();
    awaitHealth(Integer.parseInt(ownerEnv.get("SEQSYNC_HTTP_PORT")));
    Map<String, String> env = commonEnvironment(base.resolve("instance"));
    int http = AppProcess.freePort();
    env.putAll(Map.of("SEQSYNC_HTTP_PORT", Integer.toString(http),
        "SEQSYNC_KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:" + kafka,
        "SEQSYNC_POSTGRES_JDBC_URL", "jdbc:postgresql://127.0.0.1:" + postgres + "/postgres",
        "SEQSYNC_POSTGRES_USER", "postgres",
        "SEQSYNC_REDIS_URI", "redis://127.0.0.1:" + redis));
    AppProcess app = new AppProcess(appJar, env, base.resolve("instance.log"));
    System.out.println("\nexternal stack: a second instance on the first one's servers; only it is killed (" + base + ")");
    try {
      return measure(app, http, base);
    } finally {
      owner.stop();
    }
  }

  private boolean measure(AppProcess app, int http, Path base) throws Exception {
    long began = System.nanoTime();
    app.start();
    awaitHealth(http);
    System.out.printf("  first start: /health 200 after %.1f s%n", seconds(System.nanoTime() - began));
    String auth = "Bearer " + new Tokens(secret).mint(1, "bench", Duration.ofHours(6));
    try (ConversationLoad load = new ConversationLoad(http, auth, conversations, rate)) {
      AppProcess.pause(steadySeconds * 1000L);
      System.out.println("  run  restart        stop    start → first 200   start → all conversations   kill → first 200   load average");
      for (int run = 1; run <= runs; run++) {
        // kill -9 under load, then start at once; then the same stack stopped cleanly and started
        restartMeasured(run, "kill -9", app::kill, app, load);
        restartMeasured(run, "stop, start", app::stop, app, load);
      }
      load.close();
      List<String> problems = load.verify();
      System.out.printf("  %,d sends answered 200 (%,d attempts failed and were retried); every conversation paged: %s%n",
          load.sent(), load.failures(), problems.isEmpty() ? "seqs 1..N, none lost, none twice" : problems.size()
              + " problems, e.g. " + problems.subList(0, Math.min(5, problems.size())));
      return problems.isEmpty();
    } finally {
      app.stop();
    }
  }

  // Stops the app as told, starts it at once and waits until every conversation is answered 200 again.
  private void restartMeasured(int run, String restart, Runnable ending, AppProcess app, ConversationLoad load) {
    long stopping = System.nanoTime();
    ending.run();
    long ended = System.nanoTime();
    load.markFrom(ended);
    app.start();
    long started = System.nanoTime();
    awaitAll(load);
    report(run, restart, restart.startsWith("kill") ? 0 : ended - stopping, started, load, ended);
    AppProcess.pause(steadySeconds * 1000L);
  }

  private void report(int run, String restart, long stopNanos, long started, ConversationLoad load, long down) {
    System.out.printf("  %3d  %-12s %5s  %17.1f s  %24.1f s  %15.1f s   %s%n", run, restart,
        stopNanos == 0 ? "—" : String.format("%.1f s", seconds(stopNanos)), seconds(load.firstOk() - started),
        seconds(load.allOk() - started), seconds(load.firstOk() - down), BenchSupport.loadAverage());
  }

  private void awaitAll(ConversationLoad load) {
    long deadline = System.nanoTime() + ANSWER_TIMEOUT.toNanos();
    while (load.allOk() == 0) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("sends not answered 200 again within " + ANSWER_TIMEOUT);
      }
      AppProcess.pause(20);
    }
  }

  private static void awaitHealth(int port) throws Exception {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    long deadline = System.nanoTime() + ANSWER_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      try {
        HttpResponse<String> health = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health"))
            .timeout(Duration.ofSeconds(2)).GET().build(), HttpResponse.BodyHandlers.ofString());
        if (health.statusCode() == 200) {
          return;
        }
      } catch (java.io.IOException e) {
        // not listening yet
      }
      AppProcess.pause(100);
    }
    throw new IllegalStateException("no /health 200 on port " + port + " within " + ANSWER_TIMEOUT);
  }

  private Map<String, String> commonEnvironment(Path dataDir) {
    Map<String, String> env = new HashMap<>();
    env.put("SEQSYNC_DATA_DIR", dataDir.toString());
    env.put("SEQSYNC_AUTH_SECRET", secret);
    env.put("SEQSYNC_HTTP_HOST", "127.0.0.1");
    // The check pages every conversation at once: above the default bucket it would measure the limit.
    env.put("SEQSYNC_FETCH_RATE", "100000");
    env.put("SEQSYNC_FETCH_BURST", "100000");
    env.putAll(LimitsSettings.raisedToAsEnvironment(100_000)); // and its sends, likewise
    return env;
  }

  private Path fresh(String name) {
    Path path = dir.resolve(name);
    if (Files.exists(path)) {
      BenchSupport.deleteTree(path);
    }
    try {
      return Files.createDirectories(path);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  static double seconds(long nanos) {
    return nanos / 1e9;
  }
}
