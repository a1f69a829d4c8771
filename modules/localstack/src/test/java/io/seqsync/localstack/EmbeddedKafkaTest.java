package io.seqsync.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedKafkaTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  @TempDir static Path sharedDir;
  private static EmbeddedKafka kafka;

  @BeforeAll
  static void startBroker() {
    kafka = EmbeddedKafka.start(sharedDir, 0);
  }

  @AfterAll
  static void stopBroker() {
    kafka.close();
  }

  @Test
  void idempotentProducerRoundTrip() throws Exception {
    String topic = createTopic(kafka, 3);
    try (KafkaProducer<String, String> producer = producer(kafka, Map.of())) {
      for (int i = 0; i < 3; i++) {
        producer.send(new ProducerRecord<>(topic, i, "key-" + i, "value-" + i)).get();
      }
    }

    assertThat(readAll(kafka, topic, 3, "read_uncommitted"))
        .containsExactlyInAnyOrder("value-0", "value-1", "value-2");
  }

  // The sequencer relies on exactly-once: aborted writes must stay invisible to read_committed readers.
  @Test
  void transactionalProducerIsSeenOnlyWhenCommitted() throws Exception {
    String topic = createTopic(kafka, 1);
    try (KafkaProducer<String, String> producer =
        producer(kafka, Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "tx-" + UUID.randomUUID()))) {
      producer.initTransactions();
      producer.beginTransaction();
      producer.send(new ProducerRecord<>(topic, "k", "committed-1"));
      producer.commitTransaction();
      producer.beginTransaction();
      producer.send(new ProducerRecord<>(topic, "k", "aborted")).get();
      producer.abortTransaction();
      producer.beginTransaction();
      producer.send(new ProducerRecord<>(topic, "k", "committed-2"));
      producer.commitTransaction();
    }

    assertThat(readAll(kafka, topic, 2, "read_committed")).containsExactly("committed-1", "committed-2");
  }

  @Test
  void recordsSurviveARestart(@TempDir Path dir) throws Exception {
    String topic;
    try (EmbeddedKafka first = EmbeddedKafka.start(dir, 0)) {
      topic = createTopic(first, 1);
      try (KafkaProducer<String, String> producer = producer(first, Map.of())) {
        producer.send(new ProducerRecord<>(topic, "k", "before-restart")).get();
      }
    }

    try (EmbeddedKafka second = EmbeddedKafka.start(dir, 0)) {
      assertThat(readAll(second, topic, 1, "read_committed")).containsExactly("before-restart");
    }
  }

  // After a kill the restarted controller refuses the new broker until the dead one's session ends
  // (docs/design.md, "Restart"): the run after a kill has a short session, the next clean start Kafka's.
  @Test
  void aBrokerRestartedAfterAKillHasAShortSessionUntilItsNextCleanStart(@TempDir Path dir) throws Exception {
    int port = FreePorts.pick();
    List<String> settings = List.of("data-dir=" + dir.resolve("data"), "kafka.embedded-port=" + port,
        "postgres.jdbc-url=jdbc:postgresql://127.0.0.1:1/never", "redis.uri=redis://127.0.0.1:1"); // never contacted
    try (ChildJvm child = new ChildJvm(LocalStackProcess.class, List.of("-Xmx384m"), settings, Map.of(),
        dir.resolve("child.log"), "local stack up")) {
      child.start(Duration.ofSeconds(90));
      child.kill(); // SIGKILL: the broker's registration stays unfenced in the metadata log
    }
    Path logDir = dir.resolve("data/kafka");
    try (EmbeddedKafka afterKill = EmbeddedKafka.start(logDir, port)) {
      assertThat(brokerSetting(afterKill, "broker.session.timeout.ms")).isEqualTo("2000");
      createTopic(afterKill, 1); // throws unless the restarted broker registered and serves
    }
    try (EmbeddedKafka afterCleanStop = EmbeddedKafka.start(logDir, port)) {
      assertThat(brokerSetting(afterCleanStop, "broker.session.timeout.ms")).isEqualTo("9000");
    }
  }

  private static String brokerSetting(EmbeddedKafka kafka, String name) throws Exception {
    ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, "1");
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
      return admin.describeConfigs(List.of(broker)).all().get().get(broker).get(name).value();
    }
  }

  private static String createTopic(EmbeddedKafka kafka, int partitions) throws Exception {
    String topic = "test-" + UUID.randomUUID();
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
      admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
    }
    return topic;
  }

  private static KafkaProducer<String, String> producer(EmbeddedKafka kafka, Map<String, Object> extra) {
    Map<String, Object> config = new HashMap<>(Map.of(
        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
        ProducerConfig.ACKS_CONFIG, "all"));
    config.putAll(extra);
    return new KafkaProducer<>(config, new StringSerializer(), new StringSerializer());
  }

  // Through a consumer group, as the application reads: this also exercises the group coordinator.
  private static List<String> readAll(EmbeddedKafka kafka, String topic, int expected, String isolation) {
    Map<String, Object> config = Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
        ConsumerConfig.GROUP_ID_CONFIG, "group-" + UUID.randomUUID(),
        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
    List<String> values = new ArrayList<>();
    try (KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
      consumer.subscribe(Set.of(topic));
      long deadline = System.nanoTime() + TIMEOUT.toNanos();
      while (values.size() < expected && System.nanoTime() < deadline) {
        for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
          values.add(record.value());
        }
      }
      // One more poll: nothing beyond the expected records (e.g. an aborted one) may show up.
      consumer.poll(Duration.ofMillis(200)).forEach(record -> values.add(record.value()));
    }
    return values;
  }
}
