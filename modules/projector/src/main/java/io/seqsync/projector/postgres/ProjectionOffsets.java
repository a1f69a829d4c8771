package io.seqsync.projector.postgres;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.PreparedBatch;

/**
 * Moves the projector's consumer offsets in PostgreSQL (table projector_offsets, read with the
 * store's {@code StoredOffsets}): the next offset to read per partition, written in the same
 * transaction as the rows projected from the records before it, so rows and offsets commit
 * together or not at all. Stateless.
 */
public final class ProjectionOffsets {
  private ProjectionOffsets() {}

  /**
   * Moves each partition of {@code to} from its offset in {@code from} (absent: never projected)
   * to its offset in {@code to}. A compare-and-set: when a stored offset is not the expected one,
   * throws {@link ProjectionOffsetConflict} and the caller must roll back. The row locks it takes
   * also make a second instance working on the same partition wait for this transaction.
   */
  public static void advance(Handle handle, String topic, Map<Integer, Long> from, Map<Integer, Long> to) {
    PreparedBatch moves = handle.prepareBatch(
        "update projector_offsets set next_offset = ? where topic = ? and partition = ? and next_offset = ?");
    PreparedBatch firsts = handle.prepareBatch(
        "insert into projector_offsets (topic, partition, next_offset) values (?, ?, ?) on conflict do nothing");
    List<Integer> moved = new ArrayList<>();
    List<Integer> first = new ArrayList<>();
    // Sorted, so that two transactions lock the rows in the same order and cannot deadlock.
    to.keySet().stream().sorted().forEach(partition -> {
      Long expected = from.get(partition);
      if (expected == null) {
        firsts.add(topic, partition, to.get(partition));
        first.add(partition);
      } else {
        moves.add(to.get(partition), topic, partition, expected);
        moved.add(partition);
      }
    });
    requireOneRowEach(moves, moved, topic);
    requireOneRowEach(firsts, first, topic);
  }

  private static void requireOneRowEach(PreparedBatch batch, List<Integer> partitions, String topic) {
    if (partitions.isEmpty()) {
      return;
    }
    int[] counts = batch.execute();
    for (int i = 0; i < counts.length; i++) {
      if (counts[i] != 1) {
        throw new ProjectionOffsetConflict("the stored offset of " + topic + "/" + partitions.get(i)
            + " moved under this projector: another instance projected it");
      }
    }
  }
}
