package io.seqsync.ingress.commands;

import io.seqsync.config.KafkaConnection;
import io.seqsync.consumers.ConsumerLoop;
import io.seqsync.events.Announcements;
import io.seqsync.events.EventSerdes;
import io.seqsync.events.model.DuplicateCommand;
import io.seqsync.events.model.StoredOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads what answers a waiting command, from now on, {@code read_committed}, with one consumer on
 * its own thread: either the sequencer's duplicates, every partition of the replies topic (no
 * consumer group: every ingress instance sees every duplicate and keeps those it waits for; they
 * are as rare as a client's retries), or the projector's announcements of what it stored, the
 * partitions of the announcements topic that the ingress instances' group gives this instance (a
 * waiting command names one of them, {@link io.seqsync.events.ReplyRoute}, and the projector
 * writes its outcome there alone). Two consumers, so the announcements are never held behind the
 * sequencer's open transactions on the replies topic. Records that do not decode are logged and
 * skipped. The consumer's loop is a {@link ConsumerLoop} without a retry: a failure stops it
 * (sends then answer 202).
 */
final class RepliesListener implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RepliesListener.class);
  // Longer than a rebalance of the ingress instances' group takes.
  private static final Duration RECENT = Duration.ofSeconds(15);

  /** What one poll answers: the sequencer's duplicates and the projector's announced outcomes. */
  record Replies(List<DuplicateCommand> duplicates, List<StoredOutcome> outcomes) {
    Replies {
      duplicates = List.copyOf(duplicates);
      outcomes = List.copyOf(outcomes);
    }
  }

  private final ConsumerLoop<byte[], byte[], Replies> loop;

  /** Every partition of {@code repliesTopic} at its end, polling once this returns. */
  static RepliesListener duplicates(KafkaConnection kafka, String repliesTopic, Consumer<DuplicateCommand> duplicates) {
    KafkaConsumer<byte[], byte[]> consumer = consumer(kafka, Map.of());
    return new RepliesListener(consumer, "ingress-replies-listener", repliesTopic,
        ConsumerLoop.Placement.everyPartitionAtEnd(List.of(repliesTopic), Duration.ofSeconds(30)), duplicates,
        outcome -> { }, partitions -> { });
  }

  /**
   * The group {@code groupId}'s share of {@code announcementsTopic} for this instance, each
   * partition from what was announced in the last 15 s; {@code assigned} is told the whole share
   * at each assignment (inside the poll, the partitions positioned).
   */
  static RepliesListener announcements(KafkaConnection kafka, String announcementsTopic, String groupId,
      Consumer<StoredOutcome> outcomes, Consumer<Collection<TopicPartition>> assigned) {
    KafkaConsumer<byte[], byte[]> consumer = consumer(kafka, Map.of(ConsumerConfig.GROUP_ID_CONFIG, groupId));
    return new RepliesListener(consumer, "ingress-announcements-listener", "",
        ConsumerLoop.Placement.subscribe(List.of(announcementsTopic)), duplicate -> { }, outcomes, partitions -> {
          fromRecent(consumer, partitions);
          assigned.accept(partitions);
        });
  }

  // Nothing is committed in the group. A rebalance takes every partition away for a moment (even
  // the one this instance's sends name), so each starts at what was announced in the last
  // RECENT, not at its end: an outcome written while the group rebalanced still finds its send
  // (one that nobody waits for is ignored). Positions are resolved here, inside the poll.
  private static void fromRecent(KafkaConsumer<byte[], byte[]> consumer, Collection<TopicPartition> partitions) {
    long since = System.currentTimeMillis() - RECENT.toMillis();
    Map<TopicPartition, Long> times = new HashMap<>();
    partitions.forEach(partition -> times.put(partition, since));
    Map<TopicPartition, OffsetAndTimestamp> found = consumer.offsetsForTimes(times);
    for (TopicPartition partition : partitions) {
      OffsetAndTimestamp offset = found.get(partition);
      if (offset != null) {
        consumer.seek(partition, offset.offset());
      }
      consumer.position(partition);
    }
  }

  private RepliesListener(KafkaConsumer<byte[], byte[]> consumer, String threadName, String repliesTopic,
      ConsumerLoop.Placement placement, Consumer<DuplicateCommand> duplicates, Consumer<StoredOutcome> outcomes,
      Consumer<Collection<TopicPartition>> assigned) {
    loop = ConsumerLoop.<byte[], byte[], Replies>builder(threadName,
            "replies listener (sends will answer 202 instead of their seq)", consumer)
        .placement(placement)
        .pollTimeout(Duration.ofSeconds(1))
        .decode(records -> decode(repliesTopic, records))
        .apply(replies -> {
          replies.duplicates().forEach(duplicates);
          replies.outcomes().forEach(outcomes);
          return () -> { };
        })
        .onAssigned(assigned)
        .daemon()
        .build();
    loop.start();
  }

  private static KafkaConsumer<byte[], byte[]> consumer(KafkaConnection kafka, Map<String, Object> more) {
    Map<String, Object> settings = new HashMap<>(Map.of(
        ConsumerConfig.CLIENT_ID_CONFIG, "seqsync-ingress-replies-" + UUID.randomUUID(),
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest",
        ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100));
    settings.putAll(more);
    return new KafkaConsumer<>(kafka.with(settings), new ByteArrayDeserializer(), new ByteArrayDeserializer());
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
