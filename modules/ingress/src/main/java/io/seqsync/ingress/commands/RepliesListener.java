package io.seqsync.ingress.commands;

import io.seqsync.events.EventSerdes;
import io.seqsync.events.model.DuplicateCommand;
import io.seqsync.store.Announcements;
import io.seqsync.store.Outcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
 * Reads what answers a waiting command, from the end of two topics, {@code read_committed}, on all
 * their partitions (no consumer group: every ingress instance sees everything and keeps what it
 * waits for), with one consumer on its own thread: the sequencer's duplicates (the replies topic)
 * and the projector's announcements of what it stored (the announcements topic). The partitions of
 * each are read independently, so the announcements are never held behind the sequencer's open
 * transactions. Records that do not decode are logged and skipped.
 */
final class RepliesListener implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RepliesListener.class);

  private final KafkaConsumer<byte[], byte[]> consumer;
  private final String repliesTopic;
  private final Thread thread;
  private volatile boolean closed;

  /** Assigns every partition of both topics at its end and starts polling; returns once positioned. */
  RepliesListener(String bootstrapServers, String repliesTopic, String announcementsTopic,
      Consumer<DuplicateCommand> duplicates, Consumer<Outcome> outcomes) {
    this.repliesTopic = repliesTopic;
    consumer = new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
        ConsumerConfig.CLIENT_ID_CONFIG, "seqsync-ingress-replies-" + UUID.randomUUID(),
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest",
        ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100),
        new ByteArrayDeserializer(), new ByteArrayDeserializer());
    try {
      List<TopicPartition> partitions = new ArrayList<>();
      for (String topic : List.of(repliesTopic, announcementsTopic)) {
        List<TopicPartition> ofTopic = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
            .map(info -> new TopicPartition(topic, info.partition())).toList();
        if (ofTopic.isEmpty()) {
          throw new IllegalStateException("topic " + topic + " does not exist: create the topics first (TopicAdmin)");
        }
        partitions.addAll(ofTopic);
      }
      consumer.assign(partitions);
      consumer.seekToEnd(partitions);
      // seekToEnd is lazy: resolve the positions now, so that every reply produced from here on is seen.
      partitions.forEach(partition -> consumer.position(partition, Duration.ofSeconds(30)));
    } catch (RuntimeException e) {
      consumer.close(Duration.ZERO);
      throw e;
    }
    thread = new Thread(() -> poll(duplicates, outcomes), "ingress-replies-listener");
    thread.setDaemon(true);
    thread.start();
  }

  boolean isRunning() {
    return thread.isAlive() && !closed;
  }

  private void poll(Consumer<DuplicateCommand> duplicates, Consumer<Outcome> outcomes) {
    try {
      while (!closed) {
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofSeconds(1))) {
          if (record.topic().equals(repliesTopic)) {
            duplicate(record).ifPresent(duplicates);
          } else {
            Announcements.decode(record.value()).forEach(outcomes);
          }
        }
      }
    } catch (WakeupException e) {
      if (!closed) {
        log.error("replies listener woken up unexpectedly", e);
      }
    } catch (RuntimeException e) {
      log.error("replies listener stopped: sends will answer 202 instead of their seq", e);
    } finally {
      consumer.close(Duration.ofSeconds(5));
    }
  }

  private static Optional<DuplicateCommand> duplicate(ConsumerRecord<byte[], byte[]> record) {
    try {
      return Optional.of(EventSerdes.duplicate().decode(record.value()));
    } catch (SerializationException e) {
      log.warn("skipping undecodable reply at {}-{}@{}: {}", record.topic(), record.partition(), record.offset(),
          e.getMessage());
      return Optional.empty();
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
