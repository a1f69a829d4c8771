package io.seqsync.bench.peer;

import io.seqsync.config.LimitsSettings;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.seqsync.bench.BenchSupport;
import io.seqsync.bench.http.RawHttpClient;
import io.seqsync.ingress.auth.Tokens;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
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
  static final ObjectMapper JSON = new ObjectMapper();
  private static final long REQUEST_TIMEOUT = TimeUnit.SECONDS.toNanos(10);
  private static final int FIRST_SENDER = 1_000;

  private final PeerOptions options;
  private final Path dataDir;
  // A secret of the run's own: the app refuses the development secret next to a PostgreSQL it did not start.
  private final String secret = "bench-peer-" + java.util.UUID.randomUUID() + java.util.UUID.randomUUID();
  private final Tokens tokens = new Tokens(secret);
  private final String[] senderAuth;
  private final RawHttpClient http;
  private final ServerCpu cpu;
  private final PeerDatabase database;
  private volatile Process process;
  private volatile SeqsyncDevice device;

  SeqsyncPeer(PeerOptions options) {
    this.options = options;
    this.dataDir = options.dir().resolve("seqsync");
    this.senderAuth = new String[options.conversations()];
    for (int k = 0; k < senderAuth.length; k++) {
      senderAuth[k] = "Bearer " + tokens.mint(FIRST_SENDER + k, "bench", Duration.ofHours(6));
    }
    this.http = new RawHttpClient(options.seqsyncPorts().http(), REQUEST_TIMEOUT);
    this.database = new PeerDatabase(options.seqsyncDatabase());
    // Its PostgreSQL backends' command lines name the database.
    this.cpu = new ServerCpu(() -> process == null ? -1 : process.pid(), " " + options.seqsyncDatabase() + " ");
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
  public void start() throws Exception {
    PeerOptions.Ports ports = options.seqsyncPorts();
    List<String> command = new ArrayList<>(List.of("java", "@scripts/jvm.options", "-Xmx3g"));
    // e.g. -XX:StartFlightRecording=filename=app.jfr to profile the app (scripts/bench-peer: BENCH_APP_JAVA_OPTS).
    String extra = System.getProperty("bench.app-java-opts", "").trim();
    if (!extra.isEmpty()) {
      command.addAll(List.of(extra.split("\\s+")));
    }
    command.addAll(List.of("-jar", options.appJar().toString()));
    ProcessBuilder builder = new ProcessBuilder(command);
    Map<String, String> env = builder.environment();
    env.put("SEQSYNC_DATA_DIR", dataDir.toString());
    env.put("SEQSYNC_AUTH_SECRET", secret);
    env.put("SEQSYNC_HTTP_HOST", "127.0.0.1");
    env.put("SEQSYNC_HTTP_PORT", Integer.toString(ports.http()));
    env.put("SEQSYNC_KAFKA_EMBEDDED_PORT", Integer.toString(ports.kafka()));
    // The machine's PostgreSQL, as ejabberd's: fsync on, each commit flushed (the embedded one runs without fsync).
    env.put("SEQSYNC_POSTGRES_JDBC_URL", jdbcUrl());
    env.put("SEQSYNC_POSTGRES_USER", "postgres");
    env.put("SEQSYNC_REDIS_EMBEDDED_PORT", Integer.toString(ports.redis()));
    // One device pages 100,000 messages in 2,000 pages: above the default bucket (50/s) the
    // catch-up would measure the rate limit. The bucket is still checked on every page.
    env.put("SEQSYNC_FETCH_RATE", "100000");
    env.put("SEQSYNC_FETCH_BURST", "100000");
    env.putAll(LimitsSettings.raisedToAsEnvironment(100_000)); // and its sends, likewise
    builder.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(
        options.dir().resolve("seqsync-app.log").toFile()));
    process = builder.start();
    // A restart after a kill restores the sequencer's stores from their changelogs: minutes on a busy machine.
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(8);
    while (!ready()) {
      if (!process.isAlive()) {
        throw new IllegalStateException("seqsync exited with " + process.exitValue() + "; see "
            + options.dir().resolve("seqsync-app.log"));
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("seqsync did not become ready within 8 minutes");
      }
      BenchSupport.sleep(250);
    }
  }

  private boolean ready() {
    try {
      RawHttpClient.Response health = http.send(RawHttpClient.get("/health", "Bearer -")).get(5, TimeUnit.SECONDS);
      return health.status() == 200 && JSON.readTree(health.body()).path("checks").path("replies").asText().equals("up");
    } catch (Exception e) {
      return false;
    }
  }

  @Override
  public void kill() {
    process.destroyForcibly();
    Peer.awaitExit(process);
  }

  @Override
  public double cpuSeconds() {
    return cpu.seconds();
  }

  @Override
  public void send(Receiver receiver, int k, String id, String text, Consumer<Boolean> done) {
    ObjectNode body = JSON.createObjectNode().put("clientMsgId", id).put("type", "text").put("content", text);
    http.send(RawHttpClient.post("/v1/conversations/" + convId(receiver, k) + "/messages", senderAuth[k], body.toString()))
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
    try (RawHttpClient client = new RawHttpClient(port(), REQUEST_TIMEOUT)) {
      String auth = auth(receiver);
      long start = System.nanoTime();
      JsonNode sync = JSON.readTree(client.send(RawHttpClient.post("/v1/sync", auth, "{\"cursors\":{}}"))
          .get(30, TimeUnit.SECONDS).body());
      ConcurrentLinkedQueue<String> conversations = new ConcurrentLinkedQueue<>();
      sync.path("conversations").forEach(conversation -> conversations.add(conversation.path("convId").asText()));
      ExecutorService fetchers = Executors.newFixedThreadPool(options.fetchers(), BenchSupport.daemonThreads("bench-fetch-"));
      try {
        List<Future<?>> running = new ArrayList<>();
        for (int f = 0; f < options.fetchers(); f++) {
          running.add(fetchers.submit(() -> {
            for (String convId = conversations.poll(); convId != null; convId = conversations.poll()) {
              SeqsyncDevice.fetchAfter(client, auth, convId, 0, null);
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
      return new CatchUp((System.nanoTime() - start) / 1e9, client.bytesRead(), client.bytesWritten());
    }
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
    http.close();
    if (process != null && process.isAlive()) {
      process.destroy(); // SIGTERM: the app stops its embedded servers
      try {
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
          process.destroyForcibly();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  static JsonNode json(byte[] body) throws IOException {
    return JSON.readTree(body);
  }
}
