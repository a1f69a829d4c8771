package io.seqsync.consumers;

import io.seqsync.config.KafkaConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * How far the projection in PostgreSQL is behind the events topic: per partition, the topic's last
 * stable offset (the end a read_committed reader sees) minus the next offset projector_offsets
 * holds, as {@link ProjectedOffsets} reads it (a partition never projected counts from the
 * topic's first offset). That difference also counts the transaction markers (one per sequencer
 * transaction and partition) and aborted records between the two, which no projector ever stores:
 * a partition fully projected would show one or more. So a gap of at most {@link #COUNTED_UP_TO}
 * offsets is counted record by record (read_committed, whatever this instance's projector holds);
 * a larger one is given as the difference, which overstates it by those markers. For the health
 * answers and the operators' dashboard; measures anew at every call. Thread-safe (one measure at
 * a time).
 */
public final class ProjectionLag implements AutoCloseable {
  /** The largest gap, in offsets, counted record by record. */
  public static final int COUNTED_UP_TO = 500;

  /** One partition: the end a read_committed reader sees, the next offset projected, the events between. */
  public record PartitionLag(int partition, long endOffset, long projectedOffset, long lag) {}

  /** Every partition's lag, by partition. */
  public record Snapshot(List<PartitionLag> partitions) {
    public long total() {
      return partitions.stream().mapToLong(PartitionLag::lag).sum();
    }

    /** The partition furthest behind (the lowest-numbered among equals); empty without partitions. */
    public Optional<PartitionLag> worst() {
      return partitions.stream().max(Comparator.comparingLong(PartitionLag::lag)
          .thenComparing(PartitionLag::partition, Comparator.reverseOrder()));
    }
  }

  /**
   * Where the projection got: the next offset to project per partition of a topic, a partition
   * never projected absent, read within {@code timeout} (the store's projector offsets).
   */
  @FunctionalInterface
  public interface ProjectedOffsets {
    Map<Integer, Long> read(String topic, Duration timeout);
  }

  private final String topic;
  private final ProjectedOffsets projected;
  private final KafkaConsumer<byte[], byte[]> consumer;

  /** Lag of the projection of {@code topic} (the events topic), which got as far as {@code projected} says. */
  public ProjectionLag(KafkaConnection kafka, String topic, ProjectedOffsets projected) {
    this.topic = topic;
    this.projected = projected;
    Properties props = kafka.properties();
    props.put(ConsumerConfig.CLIENT_ID_CONFIG, "seqsync-projection-lag");
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, COUNTED_UP_TO);
    this.consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }

  /**
   * Measures now. Each call to Kafka and PostgreSQL is bounded by {@code timeout} (the counting
   * too: a gap not counted within it is given as the difference); throws when one fails.
   */
  public Snapshot measure(Duration timeout) {
    Map<Integer, Long> stored = projected.read(topic, timeout);
    synchronized (consumer) {
      long deadline = System.nanoTime() + timeout.toNanos();
      List<TopicPartition> partitions = consumer.partitionsFor(topic, timeout).stream()
          .map(info -> new TopicPartition(topic, info.partition())).toList();
      Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, timeout);
      Map<TopicPartition, Long> from = new HashMap<>();
      List<TopicPartition> neverProjected = new ArrayList<>();
      for (TopicPartition partition : partitions) {
        Long next = stored.get(partition.partition());
        if (next == null) {
          neverProjected.add(partition);
        } else {
          from.put(partition, next);
        }
      }
      if (!neverProjected.isEmpty()) {
        from.putAll(consumer.beginningOffsets(neverProjected, timeout));
      }
      Map<TopicPartition, Long> counted = count(from, ends, deadline);
      List<PartitionLag> lags = partitions.stream().map(partition -> {
        long end = ends.get(partition);
        long start = from.get(partition);
        return new PartitionLag(partition.partition(), end, start,
            counted.getOrDefault(partition, Math.max(0, end - start)));
      }).sorted(Comparator.comparingInt(PartitionLag::partition)).toList();
      return new Snapshot(lags);
    }
  }

  @Override
  public void close() {
    synchronized (consumer) {
      consumer.close(Duration.ofSeconds(5));
    }
  }

  // The committed records in [from, end) of each partition whose gap is small, read until the
  // consumer's position passes the end (it steps over markers and aborted records) or the deadline.
  private Map<TopicPartition, Long> count(Map<TopicPartition, Long> from, Map<TopicPartition, Long> ends, long deadline) {
    Set<TopicPartition> open = new HashSet<>();
    for (Map.Entry<TopicPartition, Long> start : from.entrySet()) {
      long gap = ends.get(start.getKey()) - start.getValue();
      if (gap > 0 && gap <= COUNTED_UP_TO) {
        open.add(start.getKey());
      }
    }
    Map<TopicPartition, Long> records = new HashMap<>();
    if (open.isEmpty()) {
      return records;
    }
    Map<TopicPartition, Long> done = new HashMap<>();
    consumer.assign(open);
    try {
      open.forEach(partition -> {
        consumer.seek(partition, from.get(partition));
        records.put(partition, 0L);
      });
      while (!open.isEmpty() && System.nanoTime() < deadline) {
        long leftMs = Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(Math.min(100, leftMs)))) {
          TopicPartition partition = new TopicPartition(record.topic(), record.partition());
          if (open.contains(partition) && record.offset() < ends.get(partition)) {
            records.merge(partition, 1L, Long::sum);
          }
        }
        open.removeIf(partition -> {
          boolean passed = consumer.position(partition, Duration.ofMillis(leftMs)) >= ends.get(partition);
          if (passed) {
            done.put(partition, records.get(partition));
          }
          return passed;
        });
      }
    } finally {
      consumer.assign(List.of());
    }
    return done;
  }
}
