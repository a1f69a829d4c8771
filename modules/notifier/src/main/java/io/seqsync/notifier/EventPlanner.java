package io.seqsync.notifier;

import io.seqsync.consumers.ConsumerLoop;
import io.seqsync.consumers.OffsetStore;
import io.seqsync.events.Topic;
import io.seqsync.events.model.Event;
import io.seqsync.store.keys.ContentOpener;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the event log in the channel's consumer group and writes what the channel plans for each
 * batch into the outbox, in one PostgreSQL transaction per batch, then commits the group's offsets.
 * A crash between the two reads the batch again: the outbox's upsert and the ledger make that
 * change nothing. A partition the group never read starts at the first event written after this
 * planner was created (a new channel does not notify the log's whole history). Undecodable records
 * are skipped (the projector counts them). Confined to its consumer loop's thread.
 */
final class EventPlanner implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(EventPlanner.class);

  private final ConsumerLoop<String, byte[], List<LoggedEvent>> loop;

  EventPlanner(DeliveryChannel channel, Properties consumerProperties, Topic<String, Event> events, Jdbi jdbi,
      Outbox outbox, Clock clock, java.time.Duration retryBackoff, Runnable planned, ContentOpener opener) {
    Properties props = new Properties();
    props.putAll(consumerProperties);
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
    KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
        new ByteArrayDeserializer());
    long createdAt = clock.millis();
    this.loop = ConsumerLoop.<String, byte[], List<LoggedEvent>>builder("seqsync-notifier-" + channel.name(),
            "notifier " + channel.name(), consumer)
        .subscribe(events.name())
        .decode(records -> decode(events, records))
        .apply(batch -> {
          // Previews and payloads carry plaintext, or the erased placeholder.
          opener.open(batch.stream().map(LoggedEvent::event).toList());
          jdbi.useTransaction(handle -> outbox.enqueue(handle, channel.name(), channel.ordering(),
              channel.plan(handle, batch)));
          return planned;
        })
        .offsets(new GroupOffsetsFrom(createdAt))
        .retryAfter(retryBackoff, failure -> log.error("notifier {}: planning a batch failed; reading it again in {} ms",
            channel.name(), retryBackoff.toMillis(), failure))
        .daemon()
        .build();
  }

  void start() {
    loop.start();
  }

  @Override
  public void close() {
    loop.close();
  }

  static List<LoggedEvent> decode(Topic<String, Event> topic, ConsumerRecords<String, byte[]> records) {
    List<LoggedEvent> events = new ArrayList<>(records.count());
    for (ConsumerRecord<String, byte[]> record : records) {
      if (record.value() == null) {
        continue;
      }
      try {
        events.add(new LoggedEvent(record.partition(), record.offset(),
            topic.valueSerde().deserializer().deserialize(record.topic(), record.value())));
      } catch (SerializationException e) {
        log.debug("skipping {}-{}@{}: {}", record.topic(), record.partition(), record.offset(), e.getMessage());
      }
    }
    return events;
  }

  /** The group's committed offsets; a partition without one starts at {@code since}'s first event (or its end). */
  private record GroupOffsetsFrom(long since) implements OffsetStore {
    @Override
    public Map<TopicPartition, Long> read(KafkaConsumer<?, ?> consumer, Collection<TopicPartition> partitions) {
      Map<TopicPartition, Long> where = new HashMap<>(CONSUMER_GROUP.read(consumer, partitions));
      Map<TopicPartition, Long> unread = new HashMap<>();
      partitions.stream().filter(partition -> !where.containsKey(partition))
          .forEach(partition -> unread.put(partition, since));
      if (!unread.isEmpty()) {
        Map<TopicPartition, OffsetAndTimestamp> found = consumer.offsetsForTimes(unread);
        Map<TopicPartition, Long> ends = consumer.endOffsets(unread.keySet());
        unread.keySet().forEach(partition -> {
          OffsetAndTimestamp at = found.get(partition);
          where.put(partition, at == null ? ends.get(partition) : at.offset());
        });
      }
      return where;
    }

    @Override
    public void write(KafkaConsumer<?, ?> consumer, Map<TopicPartition, OffsetAndMetadata> next) {
      CONSUMER_GROUP.write(consumer, next);
    }
  }
}
