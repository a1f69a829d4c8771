package io.seqsync.store;

import java.util.Map;
import java.util.stream.Collectors;
import org.jdbi.v3.core.Handle;

/**
 * How far the projection got, as its readers see it: the next offset to read per partition of a
 * topic in {@code projector_offsets}, which the projector moves in the same transaction as the
 * rows it writes (its writing side is the projector module's {@code ProjectionOffsets}). Stateless.
 */
public final class StoredOffsets {
  private StoredOffsets() {}

  /** The stored next offset of each partition of {@code topic}; a partition never projected is absent. */
  public static Map<Integer, Long> read(Handle handle, String topic) {
    return handle.createQuery("select partition, next_offset from projector_offsets where topic = ?")
        .bind(0, topic)
        .map((row, ctx) -> Map.entry(row.getInt("partition"), row.getLong("next_offset")))
        .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
  }
}
