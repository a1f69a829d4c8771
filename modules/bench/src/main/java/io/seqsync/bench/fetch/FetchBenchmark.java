package io.seqsync.bench.fetch;

import io.seqsync.app.SeqsyncApp;
import io.seqsync.bench.Bench;
import io.seqsync.bench.BenchSupport;
import io.seqsync.bench.History;
import io.seqsync.bench.InJvmApp;
import io.seqsync.bench.Result;
import io.seqsync.bench.Tally;
import io.seqsync.config.SeqsyncConfig;
import io.seqsync.testkit.ApiClient;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Fetch pages over HTTP next to the same query straight through JDBC, on the same data and the
 * same random (conversation, after) choice: {@code clients} closed-loop clients of
 * {@code GET /v1/conversations/{convId}/messages?after=X&limit=50}, then as many threads each with
 * its own connection running the ingress's forward-page statement, then HTTP again (the JIT keeps
 * compiling the HTTP path for minutes on two busy cores: the second pass is the fairer one).
 */
@Command(name = "bench-fetch", mixinStandardHelpOptions = true)
public final class FetchBenchmark extends Bench {
  static final int PAGE = 50;
  /** The statement the ingress runs for {@code after=X&limit=50} (51 rows: the 51st only tells hasMore). */
  static final String FORWARD_SQL = "select c.latest_seq, c.archived_seq, c.conv_id, m.msg_id, m.seq, m.sender_id,"
      + " m.sender_device, m.client_msg_id, m.type, m.content, m.create_time, m.recalled from conversations c left join"
      + " lateral (select * from messages where messages.conv_id = c.conv_id and messages.seq > ?"
      + " and messages.seq <= least(?, c.latest_seq) order by messages.seq limit ?) m on true"
      + " where c.conv_id = ? order by m.seq";

  @Option(names = "--conversations", description = "default: ${DEFAULT-VALUE}") int conversations = 200;
  @Option(names = "--messages", description = "per conversation (default: ${DEFAULT-VALUE})") int messages = 500;
  @Option(names = "--clients", description = "default: ${DEFAULT-VALUE}") int clients = 64;
  @Option(names = "--warmup-s", description = "default: ${DEFAULT-VALUE}") int warmupSeconds = 8;
  @Option(names = "--duration-s", description = "default: ${DEFAULT-VALUE}") int durationSeconds = 10;

  private History history;
  private final List<ApiClient> apis = new ArrayList<>();

  public static void main(String[] args) {
    Bench.main(new FetchBenchmark(), args);
  }

  @Override
  protected boolean measure() throws Exception {
    Path dir = Files.createTempDirectory("seqsync-bench-fetch-");
    SeqsyncConfig config = InJvmApp.config(dir, Map.of("fetch.paging.concurrency", "7",
        "fetch.paging.queue", Integer.toString(clients)));
    try (SeqsyncApp app = InJvmApp.start(config)) {
      history = new History(conversations, messages);
      System.err.printf("   writing %,d x %,d messages%n", conversations, messages);
      double written = history.write(app, config);
      rows.add(Result.row("phase", "history written", "messages", (long) conversations * messages, "seconds", written));
      HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      for (int k = 0; k < conversations; k++) {
        apis.add(new ApiClient(http, "http://127.0.0.1:" + app.httpPort(),
            app.tokens().mint(History.userA(k), "bench", Duration.ofHours(2)), Duration.ofSeconds(30)));
      }
      double first = pass("HTTP, first pass", warmupSeconds, () -> httpPage());
      double jdbc;
      try (Connections connections = new Connections(app)) {
        jdbc = pass("JDBC", 3, connections::page);
      }
      double second = pass("HTTP, second pass", 3, () -> httpPage());
      rows.add(Result.row("phase", "HTTP ÷ JDBC", "firstPassPercent", Math.round(100 * first / jdbc),
          "secondPassPercent", Math.round(100 * second / jdbc)));
    } finally {
      BenchSupport.deleteTree(dir);
    }
    return true;
  }

  /** A page that must hold 50 messages from after + 1; a failure is thrown. */
  @FunctionalInterface
  interface Page {
    void fetch() throws Exception;
  }

  /** {@code clients} threads fetching pages one after the other; pages per second in the measured window. */
  private double pass(String label, int warmup, Page page) throws InterruptedException {
    System.err.printf("   %s: %d clients, %d s warm-up + %d s measured%n", label, clients, warmup, durationSeconds);
    Tally tally = new Tally();
    long windowStart = System.nanoTime() + warmup * 1_000_000_000L;
    long windowEnd = windowStart + durationSeconds * 1_000_000_000L;
    List<Thread> threads = new ArrayList<>();
    java.util.concurrent.ThreadFactory factory = BenchSupport.daemonThreads("bench-fetch-");
    for (int c = 0; c < clients; c++) {
      threads.add(factory.newThread(() -> {
        for (long sent = System.nanoTime(); sent < windowEnd; sent = System.nanoTime()) {
          try {
            page.fetch();
            if (sent >= windowStart) {
              tally.add(200, System.nanoTime() - sent);
            }
          } catch (Exception e) {
            tally.error(String.valueOf(e));
          }
        }
      }));
    }
    threads.forEach(Thread::start);
    for (Thread thread : threads) {
      thread.join(60_000);
    }
    Map<String, Object> row = Result.row("phase", label, "clients", clients);
    row.putAll(tally.summary(durationSeconds));
    rows.add(row);
    System.err.println("   " + row);
    return tally.count(200) / (double) durationSeconds;
  }

  private void httpPage() {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    int k = random.nextInt(conversations);
    long after = random.nextInt(messages - PAGE + 1);
    ApiClient.Response page = apis.get(k).get("/v1/conversations/" + history.convIds().get(k) + "/messages?after="
        + after + "&limit=" + PAGE);
    if (page.status() != 200 || page.body().path("messages").size() != PAGE
        || page.body().path("messages").get(0).path("seq").asLong() != after + 1) {
      throw new IllegalStateException("page after " + after + ": " + page.status() + " " + page.body());
    }
  }

  /** One JDBC connection and statement per client thread, as the ingress reads a row into an object. */
  private final class Connections implements AutoCloseable {
    private final SeqsyncApp app;
    private final List<Connection> opened = new ArrayList<>();
    private final ThreadLocal<PreparedStatement> statements = ThreadLocal.withInitial(this::open);

    Connections(SeqsyncApp app) {
      this.app = app;
    }

    private synchronized PreparedStatement open() {
      try {
        Connection connection = History.jdbc(app);
        opened.add(connection);
        return connection.prepareStatement(FORWARD_SQL);
      } catch (java.sql.SQLException e) {
        throw new IllegalStateException(e);
      }
    }

    void page() throws java.sql.SQLException {
      ThreadLocalRandom random = ThreadLocalRandom.current();
      int k = random.nextInt(conversations);
      long after = random.nextInt(messages - PAGE + 1);
      PreparedStatement statement = statements.get();
      statement.setLong(1, after);
      statement.setLong(2, Long.MAX_VALUE);
      statement.setInt(3, PAGE + 1);
      statement.setString(4, history.convIds().get(k));
      int rows = 0;
      long firstSeq = -1;
      try (ResultSet rs = statement.executeQuery()) {
        while (rs.next()) {
          rs.getLong("latest_seq");
          rs.getLong("archived_seq");
          long seq = rs.getLong("seq");
          if (!rs.wasNull()) {
            new Row(rs.getLong("msg_id"), rs.getString("conv_id"), seq, rs.getLong("sender_id"),
                rs.getString("sender_device"), rs.getString("client_msg_id"), rs.getString("type"),
                rs.getString("content"), rs.getLong("create_time"), rs.getBoolean("recalled"));
            firstSeq = firstSeq < 0 ? seq : firstSeq;
            rows++;
          }
        }
      }
      if (rows < PAGE || firstSeq != after + 1) {
        throw new IllegalStateException("page after " + after + ": " + rows + " rows from seq " + firstSeq);
      }
    }

    @Override
    public synchronized void close() throws java.sql.SQLException {
      for (Connection connection : opened) {
        connection.close();
      }
    }
  }

  /** A row read into an object, as the ingress does. */
  private record Row(long msgId, String convId, long seq, long senderId, String senderDevice, String clientMsgId,
      String type, String content, long createTime, boolean recalled) {}
}
