package io.seqsync.bench.restart;

import io.seqsync.bench.Bench;
import io.seqsync.bench.BenchSupport;
import io.seqsync.bench.Result;
import io.seqsync.config.LimitsSettings;
import io.seqsync.ingress.auth.Tokens;
import io.seqsync.testkit.ApiClient;
import io.seqsync.testkit.AppLauncher;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * How long sends go unanswered when seqsync is killed (SIGKILL) under load and started again,
 * next to a clean stop and start of the same stack in the same run. The embedded default (one
 * process with its broker, PostgreSQL and Redis) and an instance on servers that keep running (a
 * second app pointed at the first's servers; only it is killed). Afterwards every conversation is
 * paged and checked: seqs 1..N, nothing lost or stored twice. Then the sequencer's restore against
 * the size of its state ({@link RestoreMeasurement}).
 */
@Command(name = "bench-restart", mixinStandardHelpOptions = true)
public final class RestartBenchmark extends Bench {
  private static final Duration ANSWER_TIMEOUT = Duration.ofMinutes(4);

  @Option(names = "--runs", description = "default: ${DEFAULT-VALUE}") int runs = 3;
  @Option(names = "--rate", description = "sends/s in all (default: ${DEFAULT-VALUE})") int rate = 100;
  @Option(names = "--conversations", description = "default: ${DEFAULT-VALUE}") int conversations = 20;
  @Option(names = "--steady-s", description = "load before and between restarts (default: ${DEFAULT-VALUE})")
  int steadySeconds = 15;
  @Option(names = "--variants", split = ",", description = "default: ${DEFAULT-VALUE}")
  List<String> variants = List.of("embedded", "external");
  @Option(names = "--restore-sizes", split = ",", description = "dedup entries, 0 for none (default: ${DEFAULT-VALUE})")
  List<Long> restoreSizes = List.of(100_000L, 1_000_000L);
  @Option(names = "--dir", description = "default: ${DEFAULT-VALUE}") Path dir = Path.of("target/bench-restart");
  @Option(names = "--app-jar", description = "default: ${DEFAULT-VALUE}")
  Path appJar = Path.of("modules/app/target/seqsync-app.jar");

  private final String secret = "bench-restart-" + UUID.randomUUID() + UUID.randomUUID();

  public static void main(String[] args) {
    Bench.main(new RestartBenchmark(), args);
  }

  @Override
  protected boolean measure() throws Exception {
    boolean ok = true;
    if (variants.contains("embedded")) {
      Path base = fresh("embedded");
      int http = AppLauncher.freePort();
      Map<String, String> env = environment(base.resolve("data"), http);
      env.putAll(embeddedPorts());
      ok &= measure("embedded", new AppLauncher(appJar.toAbsolutePath(), "2g", env, base.resolve("app.log")), http);
    }
    if (variants.contains("external")) {
      Path base = fresh("external");
      Map<String, String> servers = embeddedPorts();
      int ownerHttp = AppLauncher.freePort();
      Map<String, String> ownerEnv = environment(base.resolve("owner"), ownerHttp);
      ownerEnv.putAll(servers);
      try (AppLauncher owner = new AppLauncher(appJar.toAbsolutePath(), "2g", ownerEnv, base.resolve("owner.log")).start()) {
        owner.awaitHealthy(ownerHttp, ANSWER_TIMEOUT);
        int http = AppLauncher.freePort();
        Map<String, String> env = environment(base.resolve("instance"), http);
        env.putAll(Map.of("SEQSYNC_KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:" + servers.get("SEQSYNC_KAFKA_EMBEDDED_PORT"),
            "SEQSYNC_POSTGRES_JDBC_URL", "jdbc:postgresql://127.0.0.1:" + servers.get("SEQSYNC_POSTGRES_EMBEDDED_PORT")
                + "/postgres",
            "SEQSYNC_POSTGRES_USER", "postgres",
            "SEQSYNC_REDIS_URI", "redis://127.0.0.1:" + servers.get("SEQSYNC_REDIS_EMBEDDED_PORT")));
        ok &= measure("external", new AppLauncher(appJar.toAbsolutePath(), "2g", env, base.resolve("instance.log")), http);
      }
    }
    for (long size : restoreSizes) {
      if (size > 0) {
        RestoreMeasurement.run(dir.toAbsolutePath().resolve("restore-" + size), size, rows);
      }
    }
    return ok;
  }

  private boolean measure(String variant, AppLauncher app, int http) {
    long began = System.nanoTime();
    app.start().awaitHealthy(http, ANSWER_TIMEOUT);
    rows.add(Result.row("variant", variant, "restart", "first start", "toHealthyS", seconds(System.nanoTime() - began)));
    ApiClient api = new ApiClient(HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build(),
        "http://127.0.0.1:" + http, new Tokens(secret).mint(1, "bench", Duration.ofHours(6)), Duration.ofSeconds(3));
    try (ConversationLoad load = new ConversationLoad(api, conversations, rate)) {
      BenchSupport.sleep(steadySeconds * 1000L);
      for (int run = 1; run <= runs; run++) {
        restart(variant, run, "kill -9", app::kill, app, load);
        restart(variant, run, "stop, start", app::stop, app, load);
      }
      load.close();
      List<String> problems = load.verify();
      rows.add(Result.row("variant", variant, "answered200", load.sent(), "retried", load.failures(),
          "problems", problems.subList(0, Math.min(5, problems.size())), "problemCount", problems.size()));
      System.err.println("  " + rows.get(rows.size() - 1));
      return problems.isEmpty();
    } finally {
      app.stop();
    }
  }

  // Stops the app as told, starts it at once and waits until every conversation is answered 200 again.
  private void restart(String variant, int run, String how, Runnable ending, AppLauncher app, ConversationLoad load) {
    long stopping = System.nanoTime();
    ending.run();
    long ended = System.nanoTime();
    load.markFrom(ended);
    app.start();
    long started = System.nanoTime();
    for (long deadline = started + ANSWER_TIMEOUT.toNanos(); load.allOk() == 0; BenchSupport.sleep(20)) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("sends not answered 200 again within " + ANSWER_TIMEOUT);
      }
    }
    rows.add(Result.row("variant", variant, "run", run, "restart", how, "stopS", seconds(ended - stopping),
        "startToFirst200S", seconds(load.firstOk() - started), "startToAllConversationsS", seconds(load.allOk() - started),
        "downToFirst200S", seconds(load.firstOk() - ended), "load", BenchSupport.loadAverage()));
    System.err.println("  " + rows.get(rows.size() - 1));
    BenchSupport.sleep(steadySeconds * 1000L);
  }

  private Map<String, String> environment(Path dataDir, int http) {
    Map<String, String> env = new HashMap<>(LimitsSettings.raisedToAsEnvironment(100_000));
    env.putAll(Map.of("SEQSYNC_DATA_DIR", dataDir.toString(), "SEQSYNC_AUTH_SECRET", secret,
        "SEQSYNC_HTTP_HOST", "127.0.0.1", "SEQSYNC_HTTP_PORT", Integer.toString(http),
        // The check pages every conversation at once: above the default bucket it would measure the limit.
        "SEQSYNC_FETCH_RATE", "100000", "SEQSYNC_FETCH_BURST", "100000"));
    return env;
  }

  private static Map<String, String> embeddedPorts() {
    return new HashMap<>(Map.of("SEQSYNC_KAFKA_EMBEDDED_PORT", Integer.toString(AppLauncher.freePort()),
        "SEQSYNC_POSTGRES_EMBEDDED_PORT", Integer.toString(AppLauncher.freePort()),
        "SEQSYNC_REDIS_EMBEDDED_PORT", Integer.toString(AppLauncher.freePort())));
  }

  private Path fresh(String name) throws java.io.IOException {
    Path path = dir.toAbsolutePath().resolve(name);
    if (Files.exists(path)) {
      BenchSupport.deleteTree(path);
    }
    return Files.createDirectories(path);
  }

  static double seconds(long nanos) {
    return Math.round(nanos / 1e8) / 10.0;
  }
}
