package io.seqsync.projector.postgres;

import java.util.List;
import org.jdbi.v3.core.Jdbi;

/**
 * Empties the projection before a replay rebuilds it from the topics. Every table seqsync's
 * migrations create is a projection of a topic (the event log is the store of record), but the
 * migrations' own and {@link #KEPT}, so all of those are emptied; they are named here rather than
 * found in the schema, which may hold other applications' tables too ({@code ProjectionWipeTest}
 * fails when a migration adds a table neither list names). Stateless.
 */
public final class ProjectionWipe {
  /** seqsync's tables that are not projections (no topic holds them): the signed-out devices, the notifier's, the server API's idempotency keys, presence settings, the content key store and the erased users. */
  public static final List<String> KEPT = List.of("revocations", "pushers", "notifier_outbox", "notifier_settled",
      "notifier_dead_letters", "server_requests", "presence_settings", "content_keys", "erased_users");

  /** seqsync's projections: its tables but schema_migrations and {@link #KEPT}. */
  public static final List<String> TABLES = List.of("archived_days", "archived_messages", "conversation_members",
      "conversations", "delivery_cases", "device_cursors", "drafts", "message_renders", "messages",
      "projector_offsets", "read_positions", "seq_anomalies", "blocks", "conversation_settings", "message_reactions",
      "mentions");

  private ProjectionWipe() {}

  /** Truncates {@link #TABLES} in one statement. */
  public static void run(Jdbi jdbi) {
    jdbi.useHandle(handle -> handle.execute("truncate " + String.join(", ", TABLES)));
  }
}
