package io.seqsync.projector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seqsync.consumers.ConsumerLoop;
import io.seqsync.consumers.OffsetStore;
import io.seqsync.consumers.PartitionsFailed;
import io.seqsync.localstack.EmbeddedKafka;
import io.seqsync.localstack.TemporaryDirectory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The consumer loop under the projectors and the replies listener, on a real broker: a failed
 * batch read again from the store after the back-off, a batch failed in one partition retried
 * there alone, a failure without a retry ending the loop, and partitions assigned at their end.
 */
class ConsumerLoopTest {
  private static final Duration SETTLED = Duration.ofSeconds(60);
  private static TemporaryDirectory dir;
  private static EmbeddedKafka kafka;

  @BeforeAll
  static void startKafka() {
    dir = TemporaryDirectory.create("consumer-loop-");
    kafka = EmbeddedKafka.start(dir.path().resolve("kafka"), 0);
  }

  @AfterAll
  static void stopKafka() {
    try (TemporaryDirectory closingDir = dir; EmbeddedKafka closingKafka = kafka) {
      dir = null;
      kafka = null;
    }
  }

  @Test
  void aFailedBatchIsReadAgainFromTheStoreAfterTheBackOffAndAppliedOnce() throws Exception {
    createTopic("loop-retry");
    produce("loop-retry", "a", "b", "c");
    List<String> applied = new CopyOnWriteArrayList<>();
    AtomicInteger failures = new AtomicInteger();
    AtomicInteger calls = new AtomicInteger();
    ConsumerLoop<String, String, List<String>> loop = builder("loop-retry", "loop-retry-group")
        .apply(values -> {
          if (calls.incrementAndGet() == 1) {
            throw new IllegalStateException("the first batch fails");
          }
          return () -> applied.addAll(values);
        })
        .offsets(OffsetStore.CONSUMER_GROUP)
        .retryAfter(Duration.ofMillis(100), failure -> failures.incrementAndGet())
        .build();
    try (loop) {
      loop.start();
      await(() -> applied.size() >= 3);
      produce("loop-retry", "d");
      await(() -> applied.size() >= 4);
      assertThat(applied).containsExactly("a", "b", "c", "d");
      assertThat(failures).hasValue(1);
      assertThat(loop.assignedPartitions()).containsExactly(0);
    }
    assertThat(loop.stopped()).isCompleted();
    assertThat(loop.stopped().isCompletedExceptionally()).isFalse();
  }

  @Test
  void aBatchFailedInSomePartitionsRetriesThoseAloneWhileTheOthersGoOn() throws Exception {
    createTopic("loop-partly", 2);
    List<String> applied = new CopyOnWriteArrayList<>();
    AtomicBoolean partitionOneFails = new AtomicBoolean(true);
    AtomicInteger failures = new AtomicInteger();
    KafkaConsumer<String, String> consumer = consumer(Map.of(ConsumerConfig.GROUP_ID_CONFIG, "loop-partly-group",
        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false));
    ConsumerLoop<String, String, List<String>> loop = ConsumerLoop.<String, String, List<String>>builder(
            "loop-partly", "test loop", consumer)
        .subscribe("loop-partly")
        .decode(records -> {
          List<String> values = new ArrayList<>();
          records.forEach(record -> values.add(record.partition() + ":" + record.value()));
          return values;
        })
        .apply(values -> {
          // Partition 0's part is stored whatever partition 1's does, as the projector's shards are.
          values.stream().filter(value -> value.startsWith("0:")).forEach(applied::add);
          List<String> ones = values.stream().filter(value -> value.startsWith("1:")).toList();
          if (!ones.isEmpty() && partitionOneFails.get()) {
            throw new PartitionsFailed(Set.of(1),
                new IllegalStateException("partition 1's store is down"));
          }
          applied.addAll(ones);
          return () -> { };
        })
        .offsets(OffsetStore.CONSUMER_GROUP)
        .retryAfter(Duration.ofMillis(200), failure -> failures.incrementAndGet())
        .build();
    try (loop) {
      loop.start();
      await(() -> loop.assignedPartitions().size() == 2);
      produce("loop-partly", 1, "a");
      produce("loop-partly", 0, "b");
      await(() -> applied.contains("0:b") && failures.get() >= 1);
      produce("loop-partly", 0, "c");
      await(() -> applied.contains("0:c"));
      assertThat(applied).as("partition 1 waits, partition 0 goes on").containsExactly("0:b", "0:c");
      assertThat(failures.get()).as("partition 1 retried after each back-off").isGreaterThanOrEqualTo(1);
      produce("loop-partly", 1, "d");
      partitionOneFails.set(false);
      await(() -> applied.contains("1:d"));
      assertThat(applied).containsExactly("0:b", "0:c", "1:a", "1:d");
    }
  }

  @Test
  void withoutARetryAFailureEndsTheLoop() {
    createTopic("loop-fail");
    produce("loop-fail", "x");
    ConsumerLoop<String, String, List<String>> loop = builder("loop-fail", "loop-fail-group")
        .apply(values -> {
          throw new IllegalStateException("no retry");
        })
        .offsets(OffsetStore.CONSUMER_GROUP)
        .build();
    try (loop) {
      loop.start();
      assertThatThrownBy(() -> loop.stopped().get(SETTLED.toSeconds(), TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class).hasMessageContaining("no retry");
      assertThat(loop.assignedPartitions()).isEmpty();
    }
  }

  @Test
  void everyPartitionAtTheEndSeesOnlyWhatIsWrittenAfterTheStart() {
    createTopic("loop-end");
    produce("loop-end", "before");
    List<String> applied = new CopyOnWriteArrayList<>();
    KafkaConsumer<String, String> consumer = consumer(Map.of());
    ConsumerLoop<String, String, List<String>> loop = ConsumerLoop.<String, String, List<String>>builder(
            "loop-end", "test loop", consumer)
        .placement(ConsumerLoop.Placement.everyPartitionAtEnd(List.of("loop-end"), Duration.ofSeconds(30)))
        .decode(ConsumerLoopTest::values)
        .apply(values -> () -> applied.addAll(values))
        .build();
    try (loop) {
      loop.start();
      produce("loop-end", "after");
      await(() -> !applied.isEmpty());
      assertThat(applied).containsExactly("after");
    }
  }

  @Test
  void aTopicThatDoesNotExistIsRefusedAtTheStart() {
    ConsumerLoop<String, String, List<String>> loop = ConsumerLoop.<String, String, List<String>>builder(
            "loop-missing", "test loop", consumer(Map.of()))
        .placement(ConsumerLoop.Placement.everyPartitionAtEnd(List.of("loop-missing"), Duration.ofSeconds(5)))
        .decode(ConsumerLoopTest::values)
        .apply(values -> () -> { })
        .build();
    assertThatThrownBy(loop::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("does not exist");
    assertThat(loop.stopped()).isCompleted();
  }

  private static ConsumerLoop.Builder<String, String, List<String>> builder(String topic, String group) {
    KafkaConsumer<String, String> consumer = consumer(Map.of(ConsumerConfig.GROUP_ID_CONFIG, group,
        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false));
    return ConsumerLoop.<String, String, List<String>>builder(topic, "test loop", consumer)
        .subscribe(topic)
        .decode(ConsumerLoopTest::values);
  }

  private static List<String> values(ConsumerRecords<String, String> records) {
    List<String> values = new ArrayList<>();
    for (ConsumerRecord<String, String> record : records) {
      values.add(record.value());
    }
    return values;
  }

  private static KafkaConsumer<String, String> consumer(Map<String, Object> settings) {
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    props.putAll(settings);
    return new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer());
  }

  private static void createTopic(String topic) {
    createTopic(topic, 1);
  }

  private static void createTopic(String topic, int partitions) {
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
      admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    }
  }

  private static void produce(String topic, int partition, String value) {
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(
        Map.of("bootstrap.servers", kafka.bootstrapServers()), new StringSerializer(), new StringSerializer())) {
      producer.send(new ProducerRecord<>(topic, partition, null, value));
      producer.flush();
    }
  }

  private static void produce(String topic, String... values) {
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(
        Map.of("bootstrap.servers", kafka.bootstrapServers()), new StringSerializer(), new StringSerializer())) {
      for (String value : values) {
        producer.send(new ProducerRecord<>(topic, value));
      }
      producer.flush();
    }
  }

  // Polls a condition the loop's thread makes true; fails the test after SETTLED.
  private static void await(BooleanSupplier condition) {
    long deadline = System.nanoTime() + SETTLED.toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("settled within " + SETTLED).isLessThan(deadline);
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }
}
