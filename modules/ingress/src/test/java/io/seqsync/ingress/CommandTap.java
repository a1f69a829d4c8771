package io.seqsync.ingress;

import io.seqsync.events.EventSerdes;
import io.seqsync.events.model.Command;
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
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads what the ingress produced to the commands topic, from the end at creation. Thread-safe
 * (a property test's shrinking may run on another thread).
 */
final class CommandTap implements AutoCloseable {
  private final KafkaConsumer<String, Command> consumer;
  private final Deque<ConsumerRecord<String, Command>> buffered = new ArrayDeque<>();

  CommandTap(String bootstrapServers, String topic) {
    consumer = new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false),
        new StringDeserializer(), EventSerdes.command().deserializer());
    List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
        .map(info -> new TopicPartition(topic, info.partition())).toList();
    consumer.assign(partitions);
    consumer.seekToEnd(partitions);
    partitions.forEach(consumer::position);
  }

  /** The next produced command that matches, skipping others; fails after {@code timeout}. */
  synchronized ConsumerRecord<String, Command> next(Predicate<Command> matching, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      while (!buffered.isEmpty()) {
        ConsumerRecord<String, Command> record = buffered.poll();
        if (matching.test(record.value())) {
          return record;
        }
      }
      consumer.poll(Duration.ofMillis(100)).forEach(buffered::add);
    }
    throw new AssertionError("no matching command produced within " + timeout);
  }

  /**
   * Every command produced since the last call, up to the topic's current end. Exact, not timed:
   * a request answered 2xx had its commands acknowledged by the broker, so they lie before the end.
   */
  synchronized List<ConsumerRecord<String, Command>> drain() {
    List<ConsumerRecord<String, Command>> drained = new ArrayList<>(buffered);
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
