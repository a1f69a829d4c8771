package io.seqsync.ingress;

import io.seqsync.events.EventSerdes;
import io.seqsync.events.model.Command;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Reads what the ingress produced to the commands topic, from the end at creation. Not thread-safe. */
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
  ConsumerRecord<String, Command> next(Predicate<Command> matching, Duration timeout) {
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

  @Override
  public void close() {
    consumer.close();
  }
}
