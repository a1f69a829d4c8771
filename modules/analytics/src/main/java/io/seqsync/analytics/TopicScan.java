package io.seqsync.analytics;

import io.seqsync.config.KafkaConnection;
import io.seqsync.events.Topic;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * One read of a topic the way an analytics consumer reads seqsync's: {@code read_committed} (an
 * aborted transaction of the sequencer is never seen), every partition assigned by hand (no
 * consumer group: nothing to commit, nothing to clean up, no rebalance of the app's groups), and
 * bounded: it stops at the end each partition had when the scan began, so a scan of a live log ends.
 * Not thread-safe: one scan per thread.
 */
public final class TopicScan {
  /** How long a scan may go without progress before it gives up (a broker gone away). */
  private static final Duration STALL_LIMIT = Duration.ofMinutes(2);

  /** What a scan read: the records it handed on, those it could not decode, and the ends it read to. */
  public record Result(long records, long undecodable, Map<Integer, Long> endOffsets) {}

  private TopicScan() {}

  /**
   * Hands every record of {@code topic} at or after {@code since} (by the record's timestamp; all
   * of them when empty) up to the end noted at the start to {@code handler}, partition by
   * partition in each partition's order. A record that does not decode is counted, not handed on.
   *
   * @throws IllegalStateException when no broker answers at {@code kafka} or the topic does not exist
   */
  public static <V> Result read(KafkaConnection kafka, Topic<?, V> topic, Optional<Instant> since, Consumer<V> handler) {
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(properties(kafka))) {
      List<TopicPartition> partitions = partitions(consumer, kafka, topic.name());
      consumer.assign(partitions);
      Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
      seekToStart(consumer, partitions, since);
      long records = 0;
      long undecodable = 0;
      long lastProgress = System.nanoTime();
      while (!caughtUp(consumer, ends)) {
        boolean progressed = false;
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
          progressed = true;
          if (record.offset() >= ends.get(new TopicPartition(record.topic(), record.partition()))) {
            continue; // written after the scan began
          }
          V value;
          try {
            value = record.value() == null ? null : topic.valueSerde().deserializer().deserialize(topic.name(), record.value());
          } catch (SerializationException e) {
            value = null;
          }
          if (value == null) {
            undecodable++;
          } else {
            records++;
            handler.accept(value);
          }
        }
        if (progressed) {
          lastProgress = System.nanoTime();
        } else if (System.nanoTime() - lastProgress > STALL_LIMIT.toNanos()) {
          throw new IllegalStateException("no progress reading " + topic.name() + " for " + STALL_LIMIT.toMinutes()
              + " minutes at " + kafka);
        }
      }
      Map<Integer, Long> endOffsets = new HashMap<>();
      ends.forEach((partition, end) -> endOffsets.put(partition.partition(), end));
      return new Result(records, undecodable, Map.copyOf(endOffsets));
    } catch (TimeoutException e) {
      throw new IllegalStateException("no Kafka broker answers at " + kafka, e);
    }
  }

  private static Properties properties(KafkaConnection kafka) {
    Properties properties = kafka.properties();
    properties.put(ConsumerConfig.CLIENT_ID_CONFIG, "seqsync-analytics");
    properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    properties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
    properties.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 15_000);
    properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    return properties;
  }

  // listTopics, not partitionsFor: asking for a missing topic's partitions may create it.
  private static List<TopicPartition> partitions(KafkaConsumer<?, ?> consumer, KafkaConnection kafka, String topic) {
    List<PartitionInfo> infos = consumer.listTopics().get(topic);
    if (infos == null || infos.isEmpty()) {
      throw new IllegalStateException("no topic " + topic + " at " + kafka);
    }
    return infos.stream().map(info -> new TopicPartition(topic, info.partition())).toList();
  }

  private static void seekToStart(KafkaConsumer<?, ?> consumer, List<TopicPartition> partitions, Optional<Instant> since) {
    if (since.isEmpty()) {
      consumer.seekToBeginning(partitions);
      return;
    }
    Map<TopicPartition, Long> query = new HashMap<>();
    partitions.forEach(partition -> query.put(partition, since.get().toEpochMilli()));
    Map<TopicPartition, OffsetAndTimestamp> found = consumer.offsetsForTimes(query);
    for (TopicPartition partition : partitions) {
      OffsetAndTimestamp first = found.get(partition);
      if (first == null) {
        consumer.seekToEnd(List.of(partition)); // nothing that recent
      } else {
        consumer.seek(partition, first.offset());
      }
    }
  }

  // Positions step past transaction markers and aborted records, so a partition ends at its noted
  // end; it is then paused, so that a live log's newer records are not fetched for nothing.
  private static boolean caughtUp(KafkaConsumer<?, ?> consumer, Map<TopicPartition, Long> ends) {
    boolean caughtUp = true;
    for (Map.Entry<TopicPartition, Long> end : ends.entrySet()) {
      if (consumer.position(end.getKey()) < end.getValue()) {
        caughtUp = false;
      } else {
        consumer.pause(List.of(end.getKey()));
      }
    }
    return caughtUp;
  }
}
