package io.seqsync.ingress;

import io.seqsync.events.Topic;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * Reads what the ingress produced to one topic (the commands, the delivery reports), from the end
 * at creation. Thread-safe (a property test's shrinking may run on another thread).
 */
final class TopicTap<V> implements AutoCloseable {
  private final KafkaConsumer<String, V> consumer;
  private final Deque<ConsumerRecord<String, V>> buffered = new ArrayDeque<>();

  TopicTap(String bootstrapServers, Topic<String, V> topic) {
    consumer = new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false),
        topic.keySerde().deserializer(), topic.valueSerde().deserializer());
    List<TopicPartition> partitions = consumer.partitionsFor(topic.name()).stream()
        .map(info -> new TopicPartition(topic.name(), info.partition())).toList();
    consumer.assign(partitions);
    consumer.seekToEnd(partitions);
    partitions.forEach(consumer::position);
  }

  /** The next produced record that matches, skipping others; fails after {@code timeout}. */
  synchronized ConsumerRecord<String, V> next(Predicate<V> matching, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      while (!buffered.isEmpty()) {
        ConsumerRecord<String, V> record = buffered.poll();
        if (matching.test(record.value())) {
          return record;
        }
      }
      consumer.poll(Duration.ofMillis(100)).forEach(buffered::add);
    }
    throw new AssertionError("no matching record produced within " + timeout);
  }

  /**
   * Every record produced since the last call, up to the topic's current end. Exact, not timed:
   * a request answered 2xx had its records acknowledged by the broker, so they lie before the end.
   */
  synchronized List<ConsumerRecord<String, V>> drain() {
    List<ConsumerRecord<String, V>> drained = new ArrayList<>(buffered);
    buffered.clear();
    Map<TopicPartition, Long> end = consumer.endOffsets(consumer.assignment());
    while (end.entrySet().stream().anyMatch(partition -> consumer.position(partition.getKey()) < partition.getValue())) {
      consumer.poll(Duration.ofMillis(100)).forEach(drained::add);
    }
    return drained;
  }

  @Override
  public synchronized void close() {
    consumer.close();
  }
}
