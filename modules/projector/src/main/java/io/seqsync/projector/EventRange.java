package io.seqsync.projector;

import io.seqsync.config.KafkaConnection;
import io.seqsync.events.EventSerdes;
import io.seqsync.events.model.Event;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads the committed events of one partition between two offsets again ({@code read_committed},
 * no consumer group, nothing committed), for a listener that missed them. Records that do not
 * decode are skipped, as the projector skips them.
 */
final class EventRange {
  private static final Duration STALL_LIMIT = Duration.ofSeconds(30);

  private EventRange() {}

  /**
   * Hands the events of {@code topic}'s partition from offset {@code from} up to (not including)
   * {@code to} to {@code sink}, a poll's worth at a time; returns how many there were. Throws if the
   * position stops moving for 30 s before it reaches {@code to}.
   */
  static long read(KafkaConnection kafka, String topic, int partition, long from, long to, Consumer<List<Event>> sink) {
    TopicPartition assigned = new TopicPartition(topic, partition);
    long count = 0;
    try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(kafka.with(Map.of(
        ConsumerConfig.CLIENT_ID_CONFIG, "seqsync-projector-range-" + partition,
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none")),
        new StringDeserializer(), new ByteArrayDeserializer())) {
      consumer.assign(List.of(assigned));
      consumer.seek(assigned, from);
      long position = from;
      long movedAt = System.nanoTime();
      while (position < to) {
        List<Event> events = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(500))) {
          if (record.offset() < to) {
            decode(record, events);
          }
        }
        if (!events.isEmpty()) {
          sink.accept(events);
          count += events.size();
        }
        long now = consumer.position(assigned);
        if (now > position) {
          position = now;
          movedAt = System.nanoTime();
        } else if (System.nanoTime() - movedAt > STALL_LIMIT.toNanos()) {
          throw new IllegalStateException("reading " + assigned + " from " + from + " to " + to + " stalled at " + now);
        }
      }
    }
    return count;
  }

  private static void decode(ConsumerRecord<String, byte[]> record, List<Event> events) {
    try {
      events.add(EventSerdes.event().decode(record.value()));
    } catch (SerializationException e) {
      // Skipped, as the projector skipped it (and logged it then).
    }
  }
}
