package io.seqsync.ingress.commands;

import io.seqsync.config.KafkaConnection;
import io.seqsync.consumers.ConsumerLoop;
import io.seqsync.events.Announcements;
import io.seqsync.events.EventSerdes;
import io.seqsync.events.model.DuplicateCommand;
import io.seqsync.events.model.StoredOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads what answers a waiting command, from the end of two topics, {@code read_committed}, on all
 * their partitions (no consumer group: every ingress instance sees everything and keeps what it
 * waits for), with one consumer on its own thread: the sequencer's duplicates (the replies topic)
 * and the projector's announcements of what it stored (the announcements topic). The partitions of
 * each are read independently, so the announcements are never held behind the sequencer's open
 * transactions. Records that do not decode are logged and skipped. The consumer's loop is a
 * {@link ConsumerLoop} without a retry: a failure stops it (sends then answer 202).
 */
final class RepliesListener implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RepliesListener.class);

  /** What one poll answers: the sequencer's duplicates and the projector's announced outcomes. */
  record Replies(List<DuplicateCommand> duplicates, List<StoredOutcome> outcomes) {
    Replies {
      duplicates = List.copyOf(duplicates);
      outcomes = List.copyOf(outcomes);
    }
  }

  private final ConsumerLoop<byte[], byte[], Replies> loop;

  /** Assigns every partition of both topics at its end and starts polling; returns once positioned. */
  RepliesListener(KafkaConnection kafka, String repliesTopic, String announcementsTopic,
      Consumer<DuplicateCommand> duplicates, Consumer<StoredOutcome> outcomes) {
    KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(kafka.with(Map.of(
        ConsumerConfig.CLIENT_ID_CONFIG, "seqsync-ingress-replies-" + UUID.randomUUID(),
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest",
        ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100)),
        new ByteArrayDeserializer(), new ByteArrayDeserializer());
    loop = ConsumerLoop.<byte[], byte[], Replies>builder("ingress-replies-listener",
            "replies listener (sends will answer 202 instead of their seq)", consumer)
        .placement(ConsumerLoop.Placement.everyPartitionAtEnd(List.of(repliesTopic, announcementsTopic),
            Duration.ofSeconds(30)))
        .pollTimeout(Duration.ofSeconds(1))
        .decode(records -> decode(repliesTopic, records))
        .apply(replies -> {
          replies.duplicates().forEach(duplicates);
          replies.outcomes().forEach(outcomes);
          return () -> { };
        })
        .daemon()
        .build();
    loop.start();
  }

  boolean isRunning() {
    return !loop.stopped().isDone();
  }

  /** The replies of one poll: a record of {@code repliesTopic} is a duplicate, any other an announcement. */
  static Replies decode(String repliesTopic, ConsumerRecords<byte[], byte[]> records) {
    List<DuplicateCommand> duplicates = new ArrayList<>();
    List<StoredOutcome> outcomes = new ArrayList<>();
    for (ConsumerRecord<byte[], byte[]> record : records) {
      if (record.topic().equals(repliesTopic)) {
        try {
          duplicates.add(EventSerdes.duplicate().decode(record.value()));
        } catch (SerializationException e) {
          log.warn("skipping undecodable reply at {}-{}@{}: {}", record.topic(), record.partition(), record.offset(),
              e.getMessage());
        }
      } else {
        outcomes.addAll(Announcements.decode(record.value()));
      }
    }
    return new Replies(duplicates, outcomes);
  }

  @Override
  public void close() {
    loop.close();
  }
}
