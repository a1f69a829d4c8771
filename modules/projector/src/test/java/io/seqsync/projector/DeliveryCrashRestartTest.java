package io.seqsync.projector;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqsync.events.Topic;
import io.seqsync.events.Topics;
import io.seqsync.events.model.DeliveryReport;
import io.seqsync.events.model.RenderFailed;
import io.seqsync.events.model.Rendered;
import io.seqsync.localstack.ChildJvm;
import io.seqsync.store.Database;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;

/**
 * Delivery reports are recorded exactly once in effect under crashes, on real servers: the
 * projectors run in a child JVM ({@link ProjectorMain}) that is killed with SIGKILL several times
 * while reports stream in (one in ten sent twice, as a retrying client does), and restarted each
 * time. PostgreSQL must then hold exactly one row per distinct render and per failure: none lost
 * (the consumer's offsets are committed only after the rows) and none doubled (replayed rows are
 * inserted only when absent).
 */
class DeliveryCrashRestartTest extends OnTestServers {
  private static final int MESSAGES = 200;
  private static final int REPORTS = 12_000;
  private static final int PARTITIONS = 4;
  private static final int REPEAT_EVERY = 10;
  private static final int FAIL_EVERY = 7;
  private static final double[] KILL_AT_RECORDED_FRACTIONS = {0.2, 0.45, 0.7};
  // About 400 reports a second for 30 s: the load still streams in when the last kill comes.
  private static final long PAUSE_EVERY_100_MS = 250;
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);


  @Test
  void everyReportIsRecordedOnceAcrossRepeatedKills() throws Exception {
    Topics topics = servers.topics(PARTITIONS);
    String jdbcUrl = servers.postgres().createDatabase("delivery_crash_restart");
    Path childLog = TestServers.childLog(getClass());

    try (Database database = servers.open(jdbcUrl);
        ChildJvm projectors = servers.projectorChild("delivery-crash-test", PARTITIONS, jdbcUrl, childLog,
            "recording delivery reports from")) {
      Jdbi jdbi = database.jdbi();
      storeMessages(jdbi);
      projectors.start(START_TIMEOUT);
      Set<String> expectedRenders = new HashSet<>();
      Set<String> expectedFailures = new HashSet<>();
      CompletableFuture<Void> load = CompletableFuture.runAsync(() ->
          produce(topics.telemetry(), expectedRenders, expectedFailures));

      long recordedAtLastKill = 0;
      Random random = new Random(11);
      for (double fraction : KILL_AT_RECORDED_FRACTIONS) {
        long target = Math.max((long) (REPORTS * 0.9 * fraction), recordedAtLastKill + 300);
        awaitRows(jdbi, target, Duration.ofSeconds(60));
        Thread.sleep(random.nextInt(300)); // anywhere in a batch: polling, writing, committing
        projectors.kill();
        recordedAtLastKill = rows(jdbi);
        projectors.start(START_TIMEOUT);
      }
      load.get(2, TimeUnit.MINUTES);
      long expected = expectedRenders.size() + expectedFailures.size();
      awaitRows(jdbi, expected, Duration.ofSeconds(60));

      assertThat(recordedAtLastKill).as("the last kill landed mid-stream").isLessThan(expected);
      assertThat(projectors.starts()).isEqualTo(KILL_AT_RECORDED_FRACTIONS.length + 1);
      assertThat(strings(jdbi, "select msg_id || '/' || user_id || '/' || device_id from message_renders"))
          .containsExactlyInAnyOrderElementsOf(expectedRenders);
      assertThat(strings(jdbi, "select msg_id || '/' || user_id || '/' || device_id from delivery_cases"
          + " where cause = 'render_failed'")).containsExactlyInAnyOrderElementsOf(expectedFailures);
      assertThat(Files.readString(childLog)).as("the child's log").doesNotContain("recording delivery reports failed");
    }
  }

  // MESSAGES messages in 20 direct conversations, as the event projector would have stored them.
  private static void storeMessages(Jdbi jdbi) {
    jdbi.useTransaction(handle -> {
      for (int i = 0; i < MESSAGES; i++) {
        String conv = conv(i);
        long seq = i / 20 + 1;
        handle.execute("insert into conversations (conv_id, kind, latest_seq) values (?, 'direct', ?)"
            + " on conflict (conv_id) do update set latest_seq = excluded.latest_seq", conv, seq);
        handle.execute("insert into messages (conv_id, seq, msg_id, sender_id, sender_device, client_msg_id, type,"
            + " content, create_time) values (?, ?, ?, 1, 'phone', ?, 'text', 'hi', ?)", conv, seq, msgId(i), "c" + i,
            1_000_000L + i);
      }
    });
  }

  // Report r: message r % MESSAGES, rendered within the target (or, every FAIL_EVERY, failed) by a
  // device of its own per round over the messages; every REPEAT_EVERY sent twice.
  private static void produce(Topic<String, DeliveryReport> topic, Set<String> renders, Set<String> failures) {
    try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(
        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, servers.bootstrapServers(),
        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
        ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new ByteArraySerializer())) {
      for (int r = 0; r < REPORTS; r++) {
        int message = r % MESSAGES;
        String device = "d" + (r / MESSAGES);
        long sent = 1_000_000L + message;
        boolean failed = r % FAIL_EVERY == 0;
        DeliveryReport report = new DeliveryReport(2L, device, conv(message), (long) (message / 20 + 1), msgId(message),
            2_000_000L, failed ? new RenderFailed("unsupported") : new Rendered(sent, sent + 100 + r % 1_000));
        (failed ? failures : renders).add(msgId(message) + "/2/" + device);
        byte[] value = topic.valueSerde().serializer().serialize(topic.name(), report);
        int copies = r % REPEAT_EVERY == 0 ? 2 : 1;
        for (int copy = 0; copy < copies; copy++) {
          producer.send(new ProducerRecord<>(topic.name(), report.getConvId(), value));
        }
        if (r % 100 == 99) {
          producer.flush();
          Thread.sleep(PAUSE_EVERY_100_MS);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static String conv(int message) {
    return "d:2:" + (100 + message % 20);
  }

  private static long msgId(int message) {
    return 5_000L + message;
  }

  private static long rows(Jdbi jdbi) {
    return jdbi.withHandle(handle -> handle.createQuery(
        "select (select count(*) from message_renders) + (select count(*) from delivery_cases)").mapTo(Long.class).one());
  }

  private static void awaitRows(Jdbi jdbi, long expected, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (rows(jdbi) < expected && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertThat(rows(jdbi)).as("rows recorded within %s", timeout).isGreaterThanOrEqualTo(expected);
  }

  private static List<String> strings(Jdbi jdbi, String sql) {
    return jdbi.withHandle(handle -> handle.createQuery(sql).mapTo(String.class).list());
  }
}
