package io.seqsync.ingress;

import io.seqsync.events.EventSerdes;
import io.seqsync.events.model.DuplicateCommand;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the replies topic from its end, {@code read_committed}, on all partitions (no consumer
 * group: every ingress instance sees every reply and keeps those it waits for), and hands each
 * decoded {@link DuplicateCommand} to a listener on its own thread. Records that do not decode
 * are logged and skipped.
 */
final class RepliesListener implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RepliesListener.class);

  private final KafkaConsumer<byte[], byte[]> consumer;
  private final Thread thread;
  private volatile boolean closed;

  /** Assigns every partition of {@code topic} at its end and starts polling; returns once positioned. */
  RepliesListener(String bootstrapServers, String topic, Consumer<DuplicateCommand> listener) {
    consumer = new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
        ConsumerConfig.CLIENT_ID_CONFIG, "seqsync-ingress-replies-" + UUID.randomUUID(),
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest",
        ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100),
        new ByteArrayDeserializer(), new ByteArrayDeserializer());
    try {
      List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
          .map(info -> new TopicPartition(topic, info.partition())).toList();
      if (partitions.isEmpty()) {
        throw new IllegalStateException("topic " + topic + " does not exist: create the topics first (TopicAdmin)");
      }
      consumer.assign(partitions);
      consumer.seekToEnd(partitions);
      // seekToEnd is lazy: resolve the positions now, so that every reply produced from here on is seen.
      partitions.forEach(partition -> consumer.position(partition, Duration.ofSeconds(30)));
    } catch (RuntimeException e) {
      consumer.close(Duration.ZERO);
      throw e;
    }
    thread = new Thread(() -> poll(listener), "ingress-replies-listener");
    thread.setDaemon(true);
    thread.start();
  }

  boolean isRunning() {
    return thread.isAlive() && !closed;
  }

  private void poll(Consumer<DuplicateCommand> listener) {
    try {
      while (!closed) {
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofSeconds(1))) {
          DuplicateCommand duplicate;
          try {
            duplicate = EventSerdes.duplicate().decode(record.value());
          } catch (SerializationException e) {
            log.warn("skipping undecodable reply at {}-{}@{}: {}", record.topic(), record.partition(),
                record.offset(), e.getMessage());
            continue;
          }
          listener.accept(duplicate);
        }
      }
    } catch (WakeupException e) {
      if (!closed) {
        log.error("replies listener woken up unexpectedly", e);
      }
    } catch (RuntimeException e) {
      log.error("replies listener stopped: sends will answer 202 instead of their duplicate", e);
    } finally {
      consumer.close(Duration.ofSeconds(5));
    }
  }

  @Override
  public void close() {
    closed = true;
    consumer.wakeup();
    try {
      thread.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
