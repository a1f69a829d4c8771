package io.seqsync.bench.http;

import io.seqsync.bench.BenchSupport;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.seqsync.events.Commands;
import io.seqsync.events.Topic;
import io.seqsync.events.model.Command;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Fetch pages over HTTP next to the same query straight through JDBC, on the same data and the
 * same random (conversation, after) choice: {@code conversations} direct conversations of
 * {@code messages} messages each, written through the commands topic (so sequenced and projected
 * like any send), then {@code clients} closed-loop clients of
 * {@code GET /v1/conversations/{convId}/messages?after=X&limit=50}, then as many threads, each
 * with its own connection and PreparedStatement, running the ingress's forward-page statement.
 * {@code after} is uniform in [0, messages - 50], so every page holds 50 messages.
 */
final class FetchBenchmark {
  static final int PAGE = 50;
  static final long USER_BASE = 1_000_000;
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * The statement the ingress runs for {@code after=X&limit=50} (MessageQueries.range with until =
   * Long.MAX_VALUE and 51 rows: the 51st only tells hasMore), copied with JDBC placeholders.
   */
  static final String FORWARD_SQL = "select c.latest_seq, c.archived_seq, c.conv_id, m.msg_id, m.seq, m.sender_id, m.sender_device,"
      + " m.client_msg_id, m.type, m.content, m.create_time, m.recalled from conversations c left join lateral ("
      + " select * from messages where messages.conv_id = c.conv_id and messages.seq > ?"
      + " and messages.seq <= least(?, c.latest_seq) order by messages.seq limit ?) m on true"
      + " where c.conv_id = ? order by m.seq";

  /** A closed-loop run: pages answered in the window, their latencies (µs), failures. */
  record Result(String label, int clients, double seconds, long pages, Latency latencies, long failures, String firstFailure,
      CpuMeter.Usage cpu, PgStats.Delta pg) {
    double pagesPerSecond() {
      return pages / seconds;
    }
  }

  /** Percentiles of a pass's page latencies, µs. */
  record Latency(long p50, long p90, long p99, long max) {
    static Latency of(Samples samples) {
      return new Latency(samples.percentile(50), samples.percentile(90), samples.percentile(99), samples.max());
    }
  }

  private final int conversations;
  private final int messages;
  private final int clients;
  private final List<String> convIds = new ArrayList<>();
  private final List<String> tokens = new ArrayList<>();

  FetchBenchmark(int conversations, int messages, int clients) {
    this.conversations = conversations;
    this.messages = messages;
    this.clients = clients;
    for (int k = 0; k < conversations; k++) {
      convIds.add("d:" + (USER_BASE + 2L * k + 1) + ":" + (USER_BASE + 2L * k + 2));
    }
  }

  static long userA(int k) {
    return USER_BASE + 2L * k + 1;
  }

  void tokens(List<String> tokensOfUserA) {
    tokens.clear();
    tokens.addAll(tokensOfUserA);
  }

  /**
   * Writes every message as a send command (key convId, like the ingress) with one idempotent
   * producer, then waits until PostgreSQL's watermarks hold them all. Returns the seconds taken.
   */
  double preload(String bootstrapServers, Topic<String, Command> commands, String jdbcUrl, String user, String password) {
    return preload(bootstrapServers, commands, jdbcUrl, user, password, CompletableFuture::completedFuture);
  }

  /** The same, each command as {@code prepare} makes it (sealed, as the ingress would produce it). */
  double preload(String bootstrapServers, Topic<String, Command> commands, String jdbcUrl, String user, String password,
      Function<Command, CompletableFuture<Command>> prepare) {
    long start = System.nanoTime();
    AtomicReference<Exception> failure = new AtomicReference<>();
    try (KafkaProducer<String, Command> producer = new KafkaProducer<>(Map.of(
        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
        ProducerConfig.CLIENT_ID_CONFIG, "bench-preload",
        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
        ProducerConfig.ACKS_CONFIG, "all",
        ProducerConfig.LINGER_MS_CONFIG, 5,
        ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024),
        commands.keySerde().serializer(), commands.valueSerde().serializer())) {
      String padding = "y".repeat(80);
      List<CompletableFuture<Void>> prepared = new ArrayList<>();
      for (int n = 0; n < messages; n++) {
        for (int k = 0; k < conversations; k++) {
          long sender = (n & 1) == 0 ? userA(k) : userA(k) + 1;
          Command command = new Commands(sender, "bench").sendText(convIds.get(k), "f-" + k + "-" + n,
              "fetch message " + n + " " + padding);
          String convId = convIds.get(k);
          prepared.add(prepare.apply(command).thenAccept(ready ->
              producer.send(new ProducerRecord<>(commands.name(), convId, ready), (metadata, error) -> {
                if (error != null) {
                  failure.compareAndSet(null, error);
                }
              })));
        }
      }
      CompletableFuture.allOf(prepared.toArray(CompletableFuture[]::new)).join();
      producer.flush();
    }
    if (failure.get() != null) {
      throw new IllegalStateException("preload failed: " + failure.get(), failure.get());
    }
    long expected = (long) conversations * messages;
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    try (Connection connection = DriverManager.getConnection(jdbcUrl, user, password);
        PreparedStatement statement = connection.prepareStatement(
            "select coalesce(sum(latest_seq), 0) from conversations where conv_id = any(?)")) {
      Array ids = connection.createArrayOf("text", convIds.toArray());
      statement.setArray(1, ids);
      while (true) {
        long stored;
        try (ResultSet rs = statement.executeQuery()) {
          rs.next();
          stored = rs.getLong(1);
        }
        if (stored >= expected) {
          break;
        }
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("PostgreSQL holds only " + stored + " of " + expected + " preloaded messages");
        }
        BenchSupport.sleep(200);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot watch the preload: " + e.getMessage(), e);
    }
    return (System.nanoTime() - start) / 1e9;
  }

  /** A random page: conversation index and after. */
  private long[] pick() {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    return new long[] {random.nextInt(conversations), random.nextInt(messages - PAGE + 1)};
  }

  /** {@code clients} chains of requests, each sending the next when the previous is answered. */
  Result http(String label, HttpClient http, int port, int warmupSeconds, int durationSeconds, CpuMeter cpu, PgStats pg) {
    String base = "http://127.0.0.1:" + port + "/v1/conversations/";
    long start = System.nanoTime();
    long windowStart = start + TimeUnit.SECONDS.toNanos(warmupSeconds);
    long windowEnd = windowStart + TimeUnit.SECONDS.toNanos(durationSeconds);
    Samples[] latencies = new Samples[clients];
    AtomicLong pages = new AtomicLong();
    AtomicLong failures = new AtomicLong();
    AtomicLong checked = new AtomicLong();
    AtomicReference<String> firstFailure = new AtomicReference<>();
    CountDownLatch finished = new CountDownLatch(clients);
    // One request in flight per chain: its callbacks run one after the other.
    class Chain {
      final Samples samples = new Samples();

      Chain(int id) {
        latencies[id] = samples;
      }

      void next() {
        long now = System.nanoTime();
        if (now >= windowEnd) {
          finished.countDown();
          return;
        }
        long[] page = pick();
        int k = (int) page[0];
        long after = page[1];
        HttpRequest request = HttpRequest.newBuilder(
                URI.create(base + convIds.get(k) + "/messages?after=" + after + "&limit=" + PAGE))
            .timeout(Duration.ofSeconds(30))
            .header("Authorization", "Bearer " + tokens.get(k))
            .GET().build();
        long sent = System.nanoTime();
        http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()).whenComplete((response, error) -> {
          long done = System.nanoTime();
          boolean ok = error == null && response.statusCode() == 200;
          if (ok && checked.incrementAndGet() % 97 == 1) {
            ok = validPage(response.body(), after);
          }
          if (sent >= windowStart && done < windowEnd) {
            if (ok) {
              pages.incrementAndGet();
              samples.add((done - sent) / 1_000);
            } else {
              failures.incrementAndGet();
            }
          }
          if (!ok) {
            firstFailure.compareAndSet(null, error != null ? error.toString()
                : response.statusCode() + " " + new String(response.body()));
          }
          next();
        });
      }
    }
    for (int c = 0; c < clients; c++) {
      new Chain(c).next();
    }
    sleepUntil(windowStart);
    CpuMeter.Mark cpuMark = cpu.mark();
    PgStats.Snapshot pgMark = pg.snapshot();
    sleepUntil(windowEnd);
    CpuMeter.Usage usage = cpu.since(cpuMark);
    PgStats.Delta pgDelta = pg.since(pgMark);
    await(finished);
    Samples all = new Samples();
    for (Samples samples : latencies) {
      all.addAll(samples);
    }
    return new Result(label, clients, durationSeconds, pages.get(), Latency.of(all), failures.get(), firstFailure.get(), usage,
        pgDelta);
  }

  /** The same pages from wrk, out of this JVM ({@link WrkPass}). */
  Result wrk(String label, int port, int warmupSeconds, int durationSeconds, CpuMeter cpu, PgStats pg) {
    return WrkPass.run(label, port, convIds, tokens, messages, clients, warmupSeconds, durationSeconds, cpu, pg);
  }

  private static boolean validPage(byte[] body, long after) {
    try {
      JsonNode page = JSON.readTree(body);
      JsonNode list = page.path("messages");
      return list.size() == PAGE && list.get(0).path("seq").asLong() == after + 1
          && list.get(PAGE - 1).path("seq").asLong() == after + PAGE;
    } catch (java.io.IOException e) {
      return false;
    }
  }

  /** {@code clients} threads, each with its own connection and PreparedStatement, running {@link #FORWARD_SQL}. */
  Result jdbc(String label, String jdbcUrl, String user, String password, int warmupSeconds, int durationSeconds, CpuMeter cpu,
      PgStats pg) {
    long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500); // after the connections are open
    long windowStart = start + TimeUnit.SECONDS.toNanos(warmupSeconds);
    long windowEnd = windowStart + TimeUnit.SECONDS.toNanos(durationSeconds);
    // The threads go on a little after the window (uncounted): a backend that exits before the
    // CPU meter's end mark takes its CPU time with it.
    long stopAt = windowEnd + TimeUnit.SECONDS.toNanos(3);
    Samples[] latencies = new Samples[clients];
    AtomicLong pages = new AtomicLong();
    AtomicLong failures = new AtomicLong();
    AtomicReference<String> firstFailure = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      Samples samples = new Samples();
      latencies[c] = samples;
      Thread thread = new Thread(() -> {
        try (Connection connection = DriverManager.getConnection(jdbcUrl, user, password);
            PreparedStatement statement = connection.prepareStatement(FORWARD_SQL)) {
          sleepUntil(start);
          while (true) {
            long sent = System.nanoTime();
            if (sent >= stopAt) {
              break;
            }
            long[] page = pick();
            statement.setLong(1, page[1]);
            statement.setLong(2, Long.MAX_VALUE);
            statement.setInt(3, PAGE + 1);
            statement.setString(4, convIds.get((int) page[0]));
            int rows = 0;
            long firstSeq = -1;
            try (ResultSet rs = statement.executeQuery()) {
              while (rs.next()) {
                // Everything MessageQueries reads from a row.
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
            long done = System.nanoTime();
            boolean ok = rows == PAGE + 1 || (rows == PAGE && page[1] + PAGE == messages);
            ok &= firstSeq == page[1] + 1;
            if (sent >= windowStart && done < windowEnd) {
              if (ok) {
                pages.incrementAndGet();
                samples.add((done - sent) / 1_000);
              } else {
                failures.incrementAndGet();
                firstFailure.compareAndSet(null, "page after " + page[1] + ": " + rows + " rows from seq " + firstSeq);
              }
            }
          }
        } catch (SQLException e) {
          failures.incrementAndGet();
          firstFailure.compareAndSet(null, e.toString());
        }
      }, "bench-jdbc-" + c);
      thread.setDaemon(true);
      threads.add(thread);
      thread.start();
    }
    sleepUntil(windowStart);
    CpuMeter.Mark cpuMark = cpu.mark();
    PgStats.Snapshot pgMark = pg.snapshot();
    sleepUntil(windowEnd);
    CpuMeter.Usage usage = cpu.since(cpuMark);
    PgStats.Delta pgDelta = pg.since(pgMark);
    for (Thread thread : threads) {
      try {
        thread.join(30_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    Samples all = new Samples();
    for (Samples samples : latencies) {
      all.addAll(samples);
    }
    return new Result(label, clients, durationSeconds, pages.get(), Latency.of(all), failures.get(), firstFailure.get(), usage,
        pgDelta);
  }

  /** A row read into an object, as the ingress does (StoredMessage). */
  private record Row(long msgId, String convId, long seq, long senderId, String senderDevice, String clientMsgId,
      String type, String content, long createTime, boolean recalled) {}

  static void sleepUntil(long nanos) {
    long wait;
    while ((wait = nanos - System.nanoTime()) > 0) {
      try {
        TimeUnit.NANOSECONDS.sleep(wait);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      }
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      if (!latch.await(60, TimeUnit.SECONDS)) {
        System.err.println("  (some fetch clients did not finish)");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
