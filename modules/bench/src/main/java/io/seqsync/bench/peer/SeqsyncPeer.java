package io.seqsync.bench.peer;

import io.seqsync.bench.BenchSupport;
import io.seqsync.bench.Cpu;
import io.seqsync.config.LimitsSettings;
import io.seqsync.ingress.auth.Tokens;
import io.seqsync.testkit.ApiClient;
import io.seqsync.testkit.AppLauncher;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * seqsync as scripts/run starts it: the app jar with {@code @scripts/jvm.options} in a process of
 * its own (embedded Kafka in its JVM, embedded Redis below it), on the benchmark's ports and data
 * directory, its tables in the machine's PostgreSQL as ejabberd's are. Sends are HTTP POSTs from the benchmarks' lean client; a device is a
 * {@code /v1/stream} WebSocket that pulls what it missed ({@link SeqsyncDevice}).
 */
final class SeqsyncPeer implements Peer {
  private static final int FIRST_SENDER = 1_000;

  private final PeerOptions options;
  private final Path dataDir;
  // A secret of the run's own: the app refuses the development secret next to a PostgreSQL it did not start.
  private final String secret = "bench-peer-" + java.util.UUID.randomUUID() + java.util.UUID.randomUUID();
  private final Tokens tokens = new Tokens(secret);
  private final ApiClient[] senders;
  private final ApiClient http;
  private final PeerDatabase database;
  private final AppLauncher app;
  private volatile SeqsyncDevice device;

  SeqsyncPeer(PeerOptions options) {
    this.options = options;
    this.dataDir = options.dir().resolve("seqsync");
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .executor(Executors.newFixedThreadPool(2, BenchSupport.daemonThreads("bench-peer-http-"))).build();
    this.http = new ApiClient(client, "http://127.0.0.1:" + options.seqsyncPorts().http(), null, Duration.ofSeconds(10));
    this.senders = new ApiClient[options.conversations()];
    for (int k = 0; k < senders.length; k++) {
      senders[k] = http.as(tokens.mint(FIRST_SENDER + k, "bench", Duration.ofHours(6)));
    }
    this.database = new PeerDatabase(options.seqsyncDatabase());
    PeerOptions.Ports ports = options.seqsyncPorts();
    Map<String, String> env = new HashMap<>(LimitsSettings.raisedToAsEnvironment(100_000));
    env.putAll(Map.of("SEQSYNC_DATA_DIR", dataDir.toString(), "SEQSYNC_AUTH_SECRET", secret,
        "SEQSYNC_HTTP_HOST", "127.0.0.1", "SEQSYNC_HTTP_PORT", Integer.toString(ports.http()),
        "SEQSYNC_KAFKA_EMBEDDED_PORT", Integer.toString(ports.kafka()),
        // The machine's PostgreSQL, as ejabberd's: fsync on, each commit flushed (the embedded one runs without fsync).
        "SEQSYNC_POSTGRES_JDBC_URL", database.jdbcUrl(), "SEQSYNC_POSTGRES_USER", "postgres",
        "SEQSYNC_REDIS_EMBEDDED_PORT", Integer.toString(ports.redis()),
        // One device pages 100,000 messages in 2,000 pages: above the default bucket the catch-up
        // would measure the rate limit. The bucket is still checked on every page.
        "SEQSYNC_FETCH_RATE", "100000", "SEQSYNC_FETCH_BURST", "100000"));
    this.app = new AppLauncher(options.appJar(), "3g", env, options.dir().resolve("seqsync-app.log"));
  }

  @Override
  public String name() {
    return "seqsync";
  }

  static long userId(Receiver receiver) {
    return receiver.ordinal() + 1;
  }

  static String convId(Receiver receiver, int k) {
    return "d:" + userId(receiver) + ":" + (FIRST_SENDER + k);
  }

  /** The conversation's sender index, from its id. */
  static int sender(String convId) {
    return Integer.parseInt(convId.substring(convId.lastIndexOf(':') + 1)) - FIRST_SENDER;
  }

  String auth(Receiver receiver) {
    return "Bearer " + tokens.mint(userId(receiver), "bench", Duration.ofHours(6));
  }

  String jdbcUrl() {
    return database.jdbcUrl();
  }

  int fetchers() {
    return options.fetchers();
  }

  int conversations() {
    return options.conversations();
  }

  int port() {
    return options.seqsyncPorts().http();
  }

  @Override
  public void start() {
    // A restart after a kill restores the sequencer's stores from their changelogs: minutes on a busy machine.
    app.start().awaitHealthy(port(), Duration.ofMinutes(8),
        health -> health.body().path("checks").path("replies").asText().equals("up"));
  }

  @Override
  public void kill() {
    app.kill();
  }

  @Override
  public double cpuSeconds() {
    // Its PostgreSQL backends' command lines name the database.
    return app.pid() < 0 ? 0 : Cpu.treeNanos(app.pid(), " " + options.seqsyncDatabase() + " ") / 1e9;
  }

  @Override
  public void send(Receiver receiver, int k, String id, String text, Consumer<Boolean> done) {
    senders[k].sendText(convId(receiver, k), id, text)
        .whenComplete((response, error) -> done.accept(error == null && (response.status() == 200 || response.status() == 202)));
  }

  @Override
  public AutoCloseable online(Receiver receiver) throws Exception {
    device = SeqsyncDevice.connect(this, receiver, http);
    return device;
  }

  @Override
  public String clientState() {
    SeqsyncDevice current = device;
    return current == null ? "" : current.state();
  }

  @Override
  public long awaitStored(Receiver receiver, long expected, long timeoutMillis) throws Exception {
    return database.awaitCount("select coalesce(sum(latest_seq), 0) from conversations where conv_id like 'd:"
        + userId(receiver) + ":%'", expected, timeoutMillis);
  }

  @Override
  public CatchUp catchUp(Receiver receiver, Deliveries deliveries) throws Exception {
    ApiClient client = http.as(auth(receiver).substring(7));
    long start = System.nanoTime();
    ConcurrentLinkedQueue<String> conversations = new ConcurrentLinkedQueue<>();
    client.post("/v1/sync", "{\"cursors\":{}}").body().path("conversations")
        .forEach(conversation -> conversations.add(conversation.path("convId").asText()));
    ExecutorService fetchers = Executors.newFixedThreadPool(options.fetchers(), BenchSupport.daemonThreads("bench-fetch-"));
    try {
      List<Future<?>> running = new ArrayList<>();
      for (int f = 0; f < options.fetchers(); f++) {
        running.add(fetchers.submit(() -> {
          for (String convId = conversations.poll(); convId != null; convId = conversations.poll()) {
            SeqsyncDevice.fetchAfter(client, convId, 0, null);
          }
          return null;
        }));
      }
      for (Future<?> fetcher : running) {
        fetcher.get(10, TimeUnit.MINUTES);
      }
    } finally {
      fetchers.shutdownNow();
    }
    return new CatchUp((System.nanoTime() - start) / 1e9);
  }

  @Override
  public String storageCounts() throws SQLException {
    return String.format("messages %,d rows (LIVE %,d, CATCHUP %,d, CRASH %,d)", count("select count(*) from messages"),
        count("select count(*) from messages where conv_id like 'd:1:%'"),
        count("select count(*) from messages where conv_id like 'd:2:%'"),
        count("select count(*) from messages where conv_id like 'd:3:%'"));
  }

  private long count(String sql) throws SQLException {
    return database.count(sql);
  }

  @Override
  public void close() {
    app.stop(); // SIGTERM: the app stops its embedded servers
  }
}
