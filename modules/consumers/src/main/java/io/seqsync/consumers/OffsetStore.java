package io.seqsync.consumers;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Where a {@link ConsumerLoop} keeps the next offset of each partition it read: where a partition
 * starts when assigned and after a failed batch, and where a batch's next offsets go once applied.
 * Called on the loop's thread only, with its consumer.
 */
public interface OffsetStore {
  /**
   * Nothing stored: the loop leaves every position to the consumer (where the placement put it, or
   * its {@code auto.offset.reset}), and a failed batch is not read again. For partitions assigned
   * by hand and positioned before the loop starts.
   */
  OffsetStore NONE = new OffsetStore() {
    @Override
    public Map<TopicPartition, Long> read(KafkaConsumer<?, ?> consumer, Collection<TopicPartition> partitions) {
      throw new UnsupportedOperationException("nothing stored");
    }

    @Override
    public void write(KafkaConsumer<?, ?> consumer, Map<TopicPartition, OffsetAndMetadata> next) {}
  };

  /** The consumer group's committed offsets, committed after each applied batch. */
  OffsetStore CONSUMER_GROUP = new OffsetStore() {
    @Override
    public Map<TopicPartition, Long> read(KafkaConsumer<?, ?> consumer, Collection<TopicPartition> partitions) {
      Set<TopicPartition> owned = new HashSet<>(partitions);
      Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(owned);
      Map<TopicPartition, Long> where = new HashMap<>();
      committed.forEach((partition, offset) -> {
        if (offset != null) {
          where.put(partition, offset.offset());
        }
      });
      return where;
    }

    @Override
    public void write(KafkaConsumer<?, ?> consumer, Map<TopicPartition, OffsetAndMetadata> next) {
      consumer.commitSync(next);
    }
  };

  /** The stored next offset of each of {@code partitions}; one absent starts from the partition's beginning. */
  Map<TopicPartition, Long> read(KafkaConsumer<?, ?> consumer, Collection<TopicPartition> partitions);

  /** Stores the next offsets of a batch just applied (nothing, when the batch stored them itself). */
  void write(KafkaConsumer<?, ?> consumer, Map<TopicPartition, OffsetAndMetadata> next);

  /** The partitions leave this consumer: what the store knows of them is someone else's now. */
  default void forget(Collection<TopicPartition> partitions) {}
}
