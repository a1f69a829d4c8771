package io.seqsync.projector.postgres;

import java.util.List;
import org.jdbi.v3.core.Jdbi;

/**
 * Empties the projection before a replay rebuilds it from the topics. Every table seqsync's
 * migrations create is a projection of a topic (the event log is the store of record), so all of
 * them are emptied but the migrations' own; they are named here rather than found in the schema,
 * which may hold other applications' tables too ({@code ProjectionWipeTest} fails when a migration
 * adds a table this list misses). Stateless.
 */
public final class ProjectionWipe {
  /** seqsync's tables, but schema_migrations. */
  public static final List<String> TABLES = List.of("archived_days", "archived_messages", "conversation_members",
      "conversations", "delivery_cases", "device_cursors", "drafts", "message_renders", "messages",
      "projector_offsets", "read_positions", "seq_anomalies", "blocks");

  private ProjectionWipe() {}

  /** Truncates {@link #TABLES} in one statement. */
  public static void run(Jdbi jdbi) {
    jdbi.useHandle(handle -> handle.execute("truncate " + String.join(", ", TABLES)));
  }
}
