package io.seqsync.projector;

import io.seqsync.events.ConvId;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Jdbi;

/**
 * The committed members of conversations, for listeners that fan out to them: a direct
 * conversation's two users come from its id, a group's from PostgreSQL. One per batch: it
 * remembers what it read.
 */
final class ConversationMembers {
  private final Jdbi jdbi;
  private final Map<String, List<Long>> known = new HashMap<>();

  ConversationMembers(Jdbi jdbi) {
    this.jdbi = jdbi;
  }

  List<Long> of(String convId) {
    return known.computeIfAbsent(convId, this::read);
  }

  private List<Long> read(String convId) {
    ConvId id = ConvId.parse(convId).orElseThrow();
    if (id.kind() == ConvId.Kind.DIRECT) {
      return id.directUsers();
    }
    return jdbi.withHandle(handle -> handle.createQuery("select user_id from conversation_members where conv_id = :conv")
        .bind("conv", convId).mapTo(Long.class).list());
  }
}
