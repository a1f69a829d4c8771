package io.seqsync.bench.http;

import io.seqsync.bench.BenchSupport;
import io.seqsync.app.SeqsyncApp;
import io.seqsync.bench.CliOptions;
import io.seqsync.config.ConfigLoader;
import io.seqsync.config.LimitsSettings;
import io.seqsync.config.SeqsyncConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * R23's lane isolation, measured: first-screen fetches ({@code GET .../messages?last=20}) at a
 * fixed rate (open loop) alone, then while a flood of history paging ({@code before} and
 * {@code after&until} pages) saturates the paging lane, with clients that wait as
 * {@code Retry-After} says (polite) and with clients that come back at once (rude), in rounds of
 * the three, on the whole app in this JVM with its default fetch settings, all in one run. The history is written straight into
 * PostgreSQL (fetches never look at Kafka). Requests take random devices' tokens so that no device
 * nears its rate limit: the lanes are measured, not the buckets. Markdown on stdout, progress on
 * stderr. See docs/benchmarks.md, "Fetch lanes: first screens under a paging flood (R23)", and scripts/bench-lanes.
 */
public final class LaneBenchmark {
  private static final Duration TOKEN_TTL = Duration.ofHours(2);
  private static final int SETTLE_SECONDS = 2;
  static final int SCREEN_LAST = 20;
  static final String ALONE = "first screens alone";
  static final String POLITE = "+ polite paging flood (honours Retry-After)";
  static final String RUDE = "+ rude paging flood (ignores Retry-After)";
  private static final int NO_FLOOD = Integer.MIN_VALUE;

  /** What the clients of one kind got in a measured window: latencies of 200s (µs) and every status. */
  record Tally(Samples latencies, Map<Integer, Long> statuses, long errors, String firstError) {
    long count(int status) {
      return statuses.getOrDefault(status, 0L);
    }

    long total() {
      return statuses.values().stream().mapToLong(Long::longValue).sum() + errors;
    }

    Tally plus(Tally other) {
      if (other == null) {
        return this;
      }
      Samples both = new Samples();
      both.addAll(latencies);
      both.addAll(other.latencies);
      Map<Integer, Long> counts = new HashMap<>(statuses);
      other.statuses.forEach((status, n) -> counts.merge(status, n, Long::sum));
      return new Tally(both, counts, errors + other.errors, firstError != null ? firstError : other.firstError);
    }
  }

  /** One measured phase, or the sum of several of a kind. */
  record Phase(String label, double seconds, Tally screens, Tally flood, CpuMeter.Usage cpu) {
    Phase plus(Phase other) {
      Map<String, Double> cores = new LinkedHashMap<>();
      cpu.cores().forEach((group, used) -> cores.put(group,
          (used * seconds + other.cpu.get(group) * other.seconds) / (seconds + other.seconds)));
      return new Phase(label, seconds + other.seconds, screens.plus(other.screens),
          flood == null ? other.flood : flood.plus(other.flood), new CpuMeter.Usage(cores, cpu.seconds() + other.cpu.seconds()));
    }
  }

  private final LaneBenchOptions options;
  private final HttpClient screenHttp;
  private final HttpClient floodHttp;
  private final String base;
  private final List<String> convIds = new ArrayList<>();
  private final List<List<String>> screenTokens = new ArrayList<>();
  private final List<List<String>> floodTokens = new ArrayList<>();

  private LaneBenchmark(LaneBenchOptions options, SeqsyncApp app) {
    this.options = options;
    // Apart, so that the flood's connections and selector do not queue the first screens client-side.
    this.screenHttp = client("bench-screen-http-");
    this.floodHttp = client("bench-flood-http-");
    this.base = "http://127.0.0.1:" + app.httpPort() + "/v1/conversations/";
    for (int k = 0; k < options.conversations(); k++) {
      long user = FetchBenchmark.userA(k);
      convIds.add("d:" + user + ":" + (user + 1));
      List<String> screens = new ArrayList<>();
      List<String> pagers = new ArrayList<>();
      for (int d = 0; d < options.devices(); d++) {
        screens.add(app.tokens().mint(user, "screen-" + d, TOKEN_TTL));
        pagers.add(app.tokens().mint(user, "pager-" + d, TOKEN_TTL));
      }
      screenTokens.add(screens);
      floodTokens.add(pagers);
    }
  }

  public static void main(String[] args) throws Exception {
    LaneBenchOptions options = CliOptions.parseOrExit(args, LaneBenchOptions::parse, LaneBenchOptions.USAGE);
    BenchSupport.quietLogs();
    Path dataDir = Files.createTempDirectory("seqsync-bench-lanes-");
    CpuMeter cpu = new CpuMeter(dataDir.toString());
    double others = cpu.awaitQuiet(options.quietWaitSeconds());
    // Its flood is the fetch lanes', not the abuse limits' (raised out of the way).
    Map<String, String> settings = new HashMap<>(LimitsSettings.raisedTo(100_000));
    settings.putAll(options.config());
    settings.putAll(Map.of("data-dir", dataDir.toString(), "kafka.embedded-port", "0", "postgres.embedded-port", "0",
        "redis.embedded-port", "0", "http.host", "127.0.0.1", "http.port", "0"));
    SeqsyncConfig config = ConfigLoader.of(settings);
    List<Phase> phases = new ArrayList<>();
    String started = Instant.now().toString();
    try (SeqsyncApp app = SeqsyncApp.start(config)) {
      System.err.printf("== app started, HTTP on port %d; writing %,d x %,d messages%n", app.httpPort(),
          options.conversations(), options.messages());
      preload(app, options);
      LaneBenchmark bench = new LaneBenchmark(options, app);
      System.err.printf("== warm-up: first screens and a rude flood together, %d s%n", options.warmupSeconds());
      bench.phase("warm-up", options.rudePauseMillis(), options.warmupSeconds(), 0, cpu);
      // Short phases in rounds, in a rotating order: JIT and other processes' load drift over
      // the run, and then weigh on every kind alike.
      List<String> kinds = List.of(ALONE, POLITE, RUDE);
      for (int round = 0; round < options.rounds(); round++) {
        System.err.printf("== round %d of %d%n", round + 1, options.rounds());
        for (int i = 0; i < kinds.size(); i++) {
          String kind = kinds.get((round + i) % kinds.size());
          int floodPause = kind.equals(ALONE) ? NO_FLOOD : kind.equals(POLITE) ? -1 : options.rudePauseMillis();
          phases.add(bench.phase(kind, floodPause, SETTLE_SECONDS, options.durationSeconds(), cpu));
        }
      }
    } finally {
      BenchSupport.deleteTree(dataDir);
    }
    System.out.print(LaneReport.markdown(options, config.fetch(), config.postgres().poolSize(), phases, started, others));
    System.exit(0);
  }

  /** The history: {@code conversations} direct conversations of {@code messages} messages, in one statement each. */
  private static void preload(SeqsyncApp app, LaneBenchOptions options) throws SQLException {
    long began = System.nanoTime();
    try (Connection connection = DriverManager.getConnection(app.stack().postgresJdbcUrl(), app.stack().postgresUser(),
        app.stack().postgresPassword())) {
      connection.setAutoCommit(false);
      try (PreparedStatement conversations = connection.prepareStatement("insert into conversations"
              + " (conv_id, kind, latest_seq, last_activity) values (?, 'direct', ?, ?)");
          PreparedStatement members = connection.prepareStatement(
              "insert into conversation_members (conv_id, user_id) values (?, ?), (?, ?)");
          PreparedStatement messages = connection.prepareStatement("insert into messages (conv_id, seq, msg_id,"
              + " sender_id, sender_device, client_msg_id, type, content, create_time) select ?, s, ? + s,"
              + " case when s % 2 = 0 then ? else ? end, 'bench', 'lane-' || ? || '-' || s, 'text',"
              + " 'history message ' || s || ' ' || repeat('y', 80), 1700000000000 + s from generate_series(1, ?) s")) {
        for (int k = 0; k < options.conversations(); k++) {
          long user = FetchBenchmark.userA(k);
          String convId = "d:" + user + ":" + (user + 1);
          conversations.setString(1, convId);
          conversations.setLong(2, options.messages());
          conversations.setLong(3, 1_700_000_000_000L + options.messages());
          conversations.executeUpdate();
          members.setString(1, convId);
          members.setLong(2, user);
          members.setString(3, convId);
          members.setLong(4, user + 1);
          members.executeUpdate();
          messages.setString(1, convId);
          messages.setLong(2, 1_000_000_000_000L + (long) k * options.messages());
          messages.setLong(3, user);
          messages.setLong(4, user + 1);
          messages.setInt(5, k);
          messages.setInt(6, options.messages());
          messages.executeUpdate();
        }
      }
      connection.commit();
      try (PreparedStatement analyze = connection.prepareStatement("analyze")) {
        connection.setAutoCommit(true);
        analyze.execute();
      }
    }
    System.err.printf("   written in %.1f s%n", (System.nanoTime() - began) / 1e9);
  }

  /**
   * First screens at their rate (and the flood, unless {@code floodPause} is {@link #NO_FLOOD}) for
   * {@code settle} seconds, then {@code measured} seconds counted; the flood starts first so that
   * the lane is full when the window opens. {@code floodPause}: see {@link ClosedLoop}.
   */
  private Phase phase(String label, int floodPause, int settle, int measured, CpuMeter cpu) {
    long now = System.nanoTime();
    long windowStart = now + TimeUnit.SECONDS.toNanos(settle);
    long windowEnd = windowStart + TimeUnit.SECONDS.toNanos(measured);
    ClosedLoop floodLoop = floodPause == NO_FLOOD ? null
        : new ClosedLoop("bench-flood-", options.floodClients(), this::page, floodPause, windowStart, windowEnd).start();
    OpenLoop screenLoop = new OpenLoop("bench-screen", options.screenRate(), this::firstScreen, windowStart, windowEnd)
        .start();
    FetchBenchmark.sleepUntil(windowStart);
    CpuMeter.Mark mark = cpu.mark();
    FetchBenchmark.sleepUntil(windowEnd);
    CpuMeter.Usage usage = cpu.since(mark);
    Tally screens = screenLoop.stop();
    Tally pages = floodLoop == null ? null : floodLoop.stop();
    Phase phase = new Phase(label, measured, screens, pages, usage);
    if (measured > 0) {
      System.err.printf("   %s: %,d first screens, p50 %.2f ms, p99 %.2f ms%s%n", label, screens.latencies().size(),
          screens.latencies().percentile(50) / 1e3, screens.latencies().percentile(99) / 1e3, pages == null ? ""
              : String.format(Locale.ROOT, "; flood: %,d pages, %,d refused (503)", pages.count(200), pages.count(503)));
    }
    return phase;
  }

  private CompletableFuture<HttpResponse<byte[]>> firstScreen() {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    int k = random.nextInt(convIds.size());
    return screenHttp.sendAsync(request(convIds.get(k) + "/messages?last=" + SCREEN_LAST,
        screenTokens.get(k).get(random.nextInt(options.devices()))), HttpResponse.BodyHandlers.ofByteArray());
  }

  private HttpResponse<byte[]> page(int client) throws Exception {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    int k = random.nextInt(convIds.size());
    long seq = random.nextLong(FetchBenchmark.PAGE, options.messages() - FetchBenchmark.PAGE);
    String query = (client % 2 == 0) ? "before=" + seq + "&limit=" + FetchBenchmark.PAGE
        : "after=" + seq + "&until=" + (seq + FetchBenchmark.PAGE);
    return floodHttp.send(request(convIds.get(k) + "/messages?" + query,
        floodTokens.get(k).get(random.nextInt(options.devices()))), HttpResponse.BodyHandlers.ofByteArray());
  }

  private HttpRequest request(String path, String token) {
    return HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30))
        .header("Authorization", "Bearer " + token).GET().build();
  }

  private static HttpClient client(String threads) {
    return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .executor(Executors.newFixedThreadPool(2, BenchSupport.daemonThreads(threads)))
        .connectTimeout(Duration.ofSeconds(5)).build();
  }

  /** A request of client number {@code client}. */
  interface Request {
    HttpResponse<byte[]> send(int client) throws Exception;
  }
}
