package io.seqsync.store;

import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.SqlStatements;

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

  /** As {@link #read(Handle, String)}, on a handle of {@code jdbi}, within {@code timeout} (a second at least). */
  public static Map<Integer, Long> read(Jdbi jdbi, String topic, Duration timeout) {
    int seconds = (int) Math.max(1, timeout.toSeconds());
    return jdbi.withHandle(handle -> {
      handle.getConfig(SqlStatements.class).setQueryTimeout(seconds);
      return read(handle, topic);
    });
  }
}
