package io.seqsync.store;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import io.seqsync.store.shard.ShardMap;
import org.jdbi.v3.core.Jdbi;

/**
 * What presence, typing and receipts read from PostgreSQL: who shares a conversation with whom,
 * who hides their presence, a conversation's members, and each member's delivered and seen
 * positions (from the device cursors and read positions the projector keeps). Every method is one
 * statement. Thread-safe: holds only the (thread-safe) Jdbi.
 */
public final class PresenceQueries {
  /** Who may see a user's presence. */
  public enum Visibility { MEMBERS, NOBODY }

  /**
   * A member's receipts in a conversation: {@code delivered}, the highest seq any of their devices
   * acked; {@code seen}, their read position (0: none).
   */
  public record Receipt(long userId, long delivered, long seen) {}

  private final ShardMap shards;

  /** One database for every conversation. */
  public PresenceQueries(Jdbi jdbi) {
    this(ShardMap.single(jdbi));
  }

  /** Each conversation's rows in its shard of {@code shards}. */
  public PresenceQueries(ShardMap shards) {
    this.shards = shards;
  }

  /** Those of {@code userIds} who share at least one conversation with {@code viewer}. */
  public Set<Long> sharingWith(long viewer, Collection<Long> userIds) {
    if (userIds.isEmpty()) {
      return Set.of();
    }
    // A shared conversation is in one shard: the union of every shard's answer.
    Set<Long> sharing = new HashSet<>();
    shards.fanOut(jdbi -> jdbi.withHandle(handle -> handle.createQuery("select distinct theirs.user_id"
            + " from conversation_members mine join conversation_members theirs on theirs.conv_id = mine.conv_id"
            + " where mine.user_id = :viewer and theirs.user_id = any(:users)")
        .bind("viewer", viewer).bindArray("users", Long.class, userIds)
        .mapTo(Long.class).list())).forEach(sharing::addAll);
    return sharing;
  }

  /** Those of {@code userIds} whose presence nobody may see. */
  public Set<Long> hiding(Collection<Long> userIds) {
    if (userIds.isEmpty()) {
      return Set.of();
    }
    // Presence settings belong to no conversation: the home shard.
    return shards.home().withHandle(handle -> handle.createQuery("select user_id from presence_settings"
            + " where visibility = 'nobody' and user_id = any(:users)")
        .bindArray("users", Long.class, userIds)
        .mapTo(Long.class).collect(Collectors.toCollection(HashSet::new)));
  }

  public Visibility visibility(long userId) {
    return hiding(List.of(userId)).isEmpty() ? Visibility.MEMBERS : Visibility.NOBODY;
  }

  public void setVisibility(long userId, Visibility visibility) {
    shards.home().useHandle(handle -> handle.createUpdate("insert into presence_settings (user_id, visibility)"
            + " values (:user, :visibility) on conflict (user_id) do update set visibility = excluded.visibility")
        .bind("user", userId).bind("visibility", visibility.name().toLowerCase()).execute());
  }

  /** A group's members (a direct conversation's two users come from its id, not from here). */
  public List<Long> members(String convId) {
    return shards.of(convId).withHandle(handle -> ConversationQueries.members(handle, convId));
  }

  /** Every member's receipts in the conversation, by user id. */
  public List<Receipt> receipts(String convId) {
    return shards.of(convId).withHandle(handle -> handle.createQuery("select cm.user_id,"
            + " coalesce((select max(dc.seq) from device_cursors dc"
            + "   where dc.user_id = cm.user_id and dc.conv_id = cm.conv_id), 0) as delivered,"
            + " coalesce((select rp.seq from read_positions rp"
            + "   where rp.user_id = cm.user_id and rp.conv_id = cm.conv_id), 0) as seen"
            + " from conversation_members cm where cm.conv_id = :conv order by cm.user_id")
        .bind("conv", convId)
        .map((rs, ctx) -> new Receipt(rs.getLong("user_id"), rs.getLong("delivered"), rs.getLong("seen")))
        .list());
  }
}
