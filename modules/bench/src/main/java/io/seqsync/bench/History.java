package io.seqsync.bench;

import io.seqsync.app.SeqsyncApp;
import io.seqsync.config.SeqsyncConfig;
import io.seqsync.events.Commands;
import io.seqsync.events.Topic;
import io.seqsync.events.Topics;
import io.seqsync.events.model.Command;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * A history of {@code conversations} direct conversations of {@code messages} messages each
 * (conversation k: users {@code userA(k)} and the next), written as send commands through the
 * commands topic, so sequenced and projected like any send.
 */
public final class History {
  public static final long USER_BASE = 1_000_000;
  private final int conversations;
  private final int messages;
  private final List<String> convIds = new ArrayList<>();

  public History(int conversations, int messages) {
    this.conversations = conversations;
    this.messages = messages;
    for (int k = 0; k < conversations; k++) {
      convIds.add("d:" + userA(k) + ":" + (userA(k) + 1));
    }
  }

  public static long userA(int k) {
    return USER_BASE + 2L * k + 1;
  }

  public List<String> convIds() {
    return convIds;
  }

  /** Writes every message with one idempotent producer, then waits until PostgreSQL holds them all; seconds taken. */
  public double write(SeqsyncApp app, SeqsyncConfig config) {
    return write(app, config, CompletableFuture::completedFuture);
  }

  /** The same, each command as {@code prepare} makes it (sealed, as the ingress would produce it). */
  public double write(SeqsyncApp app, SeqsyncConfig config, Function<Command, CompletableFuture<Command>> prepare) {
    long start = System.nanoTime();
    Topic<String, Command> commands = Topics.from(config.kafka()).commands();
    AtomicReference<Exception> failure = new AtomicReference<>();
    try (KafkaProducer<String, Command> producer = new KafkaProducer<>(Map.of(
        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, app.stack().kafkaBootstrapServers(),
        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true, ProducerConfig.ACKS_CONFIG, "all",
        ProducerConfig.LINGER_MS_CONFIG, 5, ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024),
        commands.keySerde().serializer(), commands.valueSerde().serializer())) {
      String padding = "y".repeat(80);
      List<CompletableFuture<Void>> prepared = new ArrayList<>();
      for (int n = 0; n < messages; n++) {
        for (int k = 0; k < conversations; k++) {
          Command command = new Commands(userA(k) + (n & 1), "bench").sendText(convIds.get(k), "f-" + k + "-" + n,
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
      throw new IllegalStateException("writing the history failed: " + failure.get(), failure.get());
    }
    long expected = (long) conversations * messages;
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
    try (Connection connection = jdbc(app);
        PreparedStatement statement = connection.prepareStatement(
            "select coalesce(sum(latest_seq), 0) from conversations where conv_id = any(?)")) {
      statement.setArray(1, connection.createArrayOf("text", convIds.toArray()));
      for (long stored = 0; stored < expected; BenchSupport.sleep(200)) {
        try (ResultSet rs = statement.executeQuery()) {
          rs.next();
          stored = rs.getLong(1);
        }
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("PostgreSQL holds only " + stored + " of " + expected + " messages");
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot watch the history being stored: " + e.getMessage(), e);
    }
    return (System.nanoTime() - start) / 1e9;
  }

  public static Connection jdbc(SeqsyncApp app) throws SQLException {
    return DriverManager.getConnection(app.stack().postgresJdbcUrl(), app.stack().postgresUser(),
        app.stack().postgresPassword());
  }
}
