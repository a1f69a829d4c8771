package io.seqsync.projector;

import io.seqsync.config.KafkaConnection;
import io.seqsync.events.ConvId;
import io.seqsync.projector.erasure.UserErasure;
import io.seqsync.projector.postgres.ProjectionOffsets;
import io.seqsync.projector.postgres.ProjectionWipe;
import io.seqsync.projector.postgres.ProjectionWriter;
import io.seqsync.store.StoredOffsets;
import io.seqsync.store.shard.ConversationPartitions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moving partitions of the events topic to another shard (docs/operations.md, "Moving partitions
 * to a new shard"). {@link #copy} projects them from the event log into the new primary, as the
 * projector does (rows and offsets in one transaction per batch), from the offsets that primary
 * already stored: it can run while the app serves from the old shard, and again, with the apps
 * stopped, to take the tail. After the switch, {@link #prune} deletes the moved conversations'
 * rows and offsets from the old shard, where reads that span shards would otherwise meet them twice.
 */
public final class PartitionMove {
  private static final Logger log = LoggerFactory.getLogger(PartitionMove.class);
  private static final Duration POLL = Duration.ofMillis(500);

  private PartitionMove() {}

  /**
   * Projects {@code partitions} of {@code topic} into {@code target} (migrated) from its stored
   * offsets (0 where none) up to the partitions' ends as of the call, then purges again the rows of
   * the users erased in {@code home} (the log holds what they wrote); returns the events applied.
   */
  public static long copy(KafkaConnection kafka, String topic, Set<Integer> partitions, Jdbi target, Jdbi home,
      int batchSize) {
    Properties props = kafka.properties();
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, batchSize);
    props.put(ConsumerConfig.CLIENT_ID_CONFIG, "seqsync-partition-move");
    List<TopicPartition> assigned = partitions.stream().sorted().map(partition -> new TopicPartition(topic, partition)).toList();
    ProjectionWriter writer = new ProjectionWriter();
    long applied = 0;
    try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
        new ByteArrayDeserializer())) {
      consumer.assign(assigned);
      Map<TopicPartition, Long> ends = consumer.endOffsets(assigned);
      Map<Integer, Long> stored = new HashMap<>(target.withHandle(handle -> StoredOffsets.read(handle, topic)));
      stored.keySet().retainAll(partitions);
      assigned.forEach(partition -> consumer.seek(partition, stored.getOrDefault(partition.partition(), 0L)));
      while (assigned.stream().anyMatch(partition -> consumer.position(partition) < ends.get(partition))) {
        ConsumerRecords<String, byte[]> records = consumer.poll(POLL);
        if (records.isEmpty()) {
          continue;
        }
        DecodedBatch batch = DecodedBatch.decode(records);
        Map<Integer, Long> from = new HashMap<>(stored);
        from.keySet().retainAll(batch.nextOffsets().keySet());
        // Guarded: a copy started again after a failure meets no row twice, whatever it finds.
        target.useTransaction(handle -> {
          ProjectionOffsets.advance(handle, topic, from, batch.nextOffsets());
          writer.apply(handle, batch.events(), ProjectionWriter.NewMessages.GUARDED);
        });
        stored.putAll(batch.nextOffsets());
        applied += batch.events().size();
      }
    }
    int erased = UserErasure.purgeErased(home, target);
    log.info("partition move: copied {} events of {} partitions {} into the new shard, {} erased users purged again",
        applied, topic, partitions, erased);
    return applied;
  }

  /**
   * Deletes from {@code source} every projection row of the conversations in {@code partitions}
   * (of {@code partitionCount}) and those partitions' stored offsets; returns the rows deleted.
   */
  public static long prune(Jdbi source, String topic, Set<Integer> partitions, int partitionCount) {
    return source.inTransaction(handle -> {
      List<String> moved = handle.createQuery("select conv_id from conversations").mapTo(String.class).stream()
          .filter(conv -> partitions.contains(ConversationPartitions.of(conv, partitionCount))).toList();
      long deleted = 0;
      for (String table : tablesWithConvId(handle)) {
        deleted += handle.createUpdate("delete from " + table + " where conv_id = any(:moved)")
            .bindArray("moved", String.class, moved).execute();
      }
      // A block is stored with the pair's direct conversation.
      List<long[]> blocks = new ArrayList<>();
      handle.createQuery("select blocker_id, blocked_id from blocks")
          .map((rs, ctx) -> new long[] {rs.getLong(1), rs.getLong(2)}).forEach(blocks::add);
      for (long[] pair : blocks) {
        if (partitions.contains(ConversationPartitions.of(ConvId.direct(pair[0], pair[1]).value(), partitionCount))) {
          deleted += handle.createUpdate("delete from blocks where blocker_id = ? and blocked_id = ?")
              .bind(0, pair[0]).bind(1, pair[1]).execute();
        }
      }
      deleted += handle.createUpdate("delete from projector_offsets where topic = :topic and partition = any(:partitions)")
          .bind("topic", topic).bindArray("partitions", Integer.class, List.copyOf(partitions)).execute();
      log.info("partition move: pruned {} rows of {} conversations of partitions {} from the old shard", deleted,
          moved.size(), partitions);
      return deleted;
    });
  }

  private static List<String> tablesWithConvId(Handle handle) {
    return handle.createQuery("select table_name from information_schema.columns where column_name = 'conv_id'"
            + " and table_schema = current_schema() and table_name = any(:tables) order by table_name")
        .bindArray("tables", String.class, ProjectionWipe.TABLES).mapTo(String.class).list();
  }
}
