package io.seqsync.analytics;

import static io.seqsync.analytics.LogEvents.appended;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seqsync.config.ConfigLoader;
import io.seqsync.config.KafkaConnection;
import io.seqsync.consumers.TopicAdmin;
import io.seqsync.events.EventSerdes;
import io.seqsync.events.Topics;
import io.seqsync.events.model.Event;
import io.seqsync.events.model.MessageAppended;
import io.seqsync.events.model.MessageType;
import io.seqsync.localstack.EmbeddedKafka;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Future;
import java.util.stream.LongStream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link TopicScan} on a real broker: what a read_committed, bounded scan of the event log sees. */
class TopicScanTest {
  @TempDir static Path dir;
  private static EmbeddedKafka kafka;

  @BeforeAll
  static void startKafka() {
    kafka = EmbeddedKafka.start(dir.resolve("kafka"), 0);
  }

  @AfterAll
  static void stopKafka() {
    kafka.close();
  }

  @Test
  void seesCommittedTransactionsOnlyAndCountsWhatDoesNotDecode() {
    Topics topics = topics("committed.");
    List<Event> committed = new ArrayList<>();
    try (KafkaProducer<String, Event> producer = producer(EventSerdes.event(), Map.of(
        ProducerConfig.TRANSACTIONAL_ID_CONFIG, "analytics-test"))) {
      producer.initTransactions();
      committed.addAll(transaction(producer, topics, 1, 4, true));
      transaction(producer, topics, 5, 3, false);
      committed.addAll(transaction(producer, topics, 8, 2, true));
    }
    try (KafkaProducer<String, byte[]> producer = producer(new ByteArraySerializer(), Map.of())) {
      producer.send(new ProducerRecord<>(topics.events().name(), "d:1:2", "not avro".getBytes(StandardCharsets.UTF_8)));
      producer.send(new ProducerRecord<>(topics.events().name(), "d:1:2", null));
    }

    List<Event> seen = new ArrayList<>();
    TopicScan.Result result = TopicScan.read(KafkaConnection.plain(kafka.bootstrapServers()), topics.events(), Optional.empty(), seen::add);

    assertThat(seen).containsExactlyInAnyOrderElementsOf(committed);
    assertThat(result.records()).isEqualTo(6);
    assertThat(result.undecodable()).isEqualTo(2);
    assertThat(result.endOffsets()).hasSize(3);
  }

  @Test
  void sinceSkipsRecordsProducedBefore() {
    Topics topics = topics("since.");
    Instant now = Instant.now();
    Instant old = now.minus(Duration.ofDays(2));
    try (KafkaProducer<String, Event> producer = producer(EventSerdes.event(), Map.of())) {
      for (int seq = 1; seq <= 6; seq++) {
        Instant time = seq <= 4 ? old : now.minusSeconds(60);
        String conv = "d:" + seq + ":9";
        producer.send(new ProducerRecord<>(topics.events().name(), null, time.toEpochMilli(), conv,
            appended(conv, 1, seq, MessageType.TEXT, time)));
      }
    }
    List<Event> seen = new ArrayList<>();
    TopicScan.read(KafkaConnection.plain(kafka.bootstrapServers()), topics.events(), Optional.of(now.minus(Duration.ofHours(1))), seen::add);
    assertThat(seen).extracting(Event::getConvId).containsExactlyInAnyOrder("d:5:9", "d:6:9");

    seen.clear();
    TopicScan.read(KafkaConnection.plain(kafka.bootstrapServers()), topics.events(), Optional.of(now.plusSeconds(3600)), seen::add);
    assertThat(seen).isEmpty();
  }

  @Test
  void endsAtTheEndsNotedWhenItBeganThoughTheLogGrows() {
    Topics topics = topics("growing.");
    String events = topics.events().name();
    int large = 12_000; // more than one poll's worth, so partition 0 is fetched again after it caught up
    try (KafkaProducer<String, Event> producer = producer(EventSerdes.event(), Map.of())) {
      List<Future<RecordMetadata>> sends = new ArrayList<>();
      for (int seq = 1; seq <= 5; seq++) {
        sends.add(producer.send(new ProducerRecord<>(events, 0, "d:1:2", appended("d:1:2", seq, 1, MessageType.TEXT, Instant.now()))));
      }
      for (int seq = 1; seq <= large; seq++) {
        sends.add(producer.send(new ProducerRecord<>(events, 1, "d:3:4", appended("d:3:4", seq, 3, MessageType.TEXT, Instant.now()))));
      }
      awaitAcknowledged(sends);
      List<Event> seen = new ArrayList<>();
      TopicScan.Result result = TopicScan.read(KafkaConnection.plain(kafka.bootstrapServers()), topics.events(), Optional.empty(), event -> {
        seen.add(event);
        if (seen.size() == 1) { // the log grows while it is read
          List<Future<RecordMetadata>> more = new ArrayList<>();
          for (int seq = 6; seq <= 20; seq++) {
            more.add(producer.send(new ProducerRecord<>(events, 0, "d:1:2", appended("d:1:2", seq, 1, MessageType.TEXT, Instant.now()))));
            more.add(producer.send(new ProducerRecord<>(events, 1, "d:3:4",
                appended("d:3:4", large + seq, 3, MessageType.TEXT, Instant.now()))));
          }
          awaitAcknowledged(more);
        }
      });
      assertThat(seen).filteredOn(event -> event.getConvId().equals("d:1:2")).extracting(TopicScanTest::seq)
          .containsExactly(1L, 2L, 3L, 4L, 5L);
      List<Long> largeSeqs = seen.stream().filter(event -> event.getConvId().equals("d:3:4")).map(TopicScanTest::seq).toList();
      assertThat(largeSeqs).as("seqs of d:3:4").isEqualTo(LongStream.rangeClosed(1, large).boxed().toList());
      assertThat(result.records()).isEqualTo(large + 5);
      assertThat(result.endOffsets()).containsEntry(0, 5L).containsEntry(1, (long) large).containsEntry(2, 0L);
    }
  }

  @Test
  void aMissingTopicIsSaidSo() {
    Topics topics = Topics.from(ConfigLoader.of(Map.of("kafka.topic-prefix", "absent.")).kafka());
    assertThatThrownBy(() -> TopicScan.read(KafkaConnection.plain(kafka.bootstrapServers()), topics.events(), Optional.empty(), event -> { }))
        .isInstanceOf(IllegalStateException.class).hasMessage("no topic absent.events at " + kafka.bootstrapServers());
  }

  // A send the broker never acknowledged would make the log shorter than the test thinks.
  private static void awaitAcknowledged(List<Future<RecordMetadata>> sends) {
    for (Future<RecordMetadata> send : sends) {
      assertThat(send).succeedsWithin(Duration.ofMinutes(3));
    }
  }

  private static long seq(Event event) {
    return ((MessageAppended) event.getPayload()).getMessage().getSeq();
  }

  private static Topics topics(String prefix) {
    Topics topics = Topics.from(ConfigLoader.of(Map.of("kafka.topic-prefix", prefix, "kafka.partitions", "3")).kafka());
    TopicAdmin.ensure(KafkaConnection.plain(kafka.bootstrapServers()), topics, (short) 1);
    return topics;
  }

  private static List<Event> transaction(KafkaProducer<String, Event> producer, Topics topics, int firstSeq, int count,
      boolean commit) {
    List<Event> events = new ArrayList<>();
    producer.beginTransaction();
    for (int seq = firstSeq; seq < firstSeq + count; seq++) {
      String conv = "d:" + seq + ":99"; // spread over the partitions
      Event event = appended(conv, seq, 99, MessageType.TEXT, Instant.now());
      producer.send(new ProducerRecord<>(topics.events().name(), conv, event));
      events.add(event);
    }
    if (commit) {
      producer.commitTransaction();
    } else {
      producer.flush();
      producer.abortTransaction();
    }
    return events;
  }

  private static <V> KafkaProducer<String, V> producer(Serializer<V> valueSerializer, Map<String, Object> extra) {
    Properties properties = new Properties();
    properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    properties.putAll(extra);
    return new KafkaProducer<>(properties, new StringSerializer(), valueSerializer);
  }
}
