package io.seqsync.store;

import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import io.seqsync.store.shard.ShardMap;
import org.jdbi.v3.core.Jdbi;

/**
 * A user's unread counts for a push notification's badge, from the projection: over all their
 * conversations and in one, with that conversation's committed watermark (so that the caller can
 * tell whether the projection has reached a message yet). One statement. Thread-safe.
 */
public final class BadgeQueries {
  /** {@code total}: unread messages over all conversations; {@code conversation}: in the one asked about. */
  public record Badge(long total, long conversation, long latestSeq) {}

  private final ShardMap shards;

  /** One database for every conversation. */
  public BadgeQueries(Jdbi jdbi) {
    this(ShardMap.single(jdbi));
  }

  /** Each conversation's rows in its shard of {@code shards}. */
  public BadgeQueries(ShardMap shards) {
    this.shards = shards;
  }

  /** A user and the conversation a notification is about. */
  public record Ask(long userId, String convId) {}

  /** The badges of several (user, conversation) pairs in one statement. */
  public Map<Ask, Badge> of(Collection<Ask> asks) {
    Map<Ask, Badge> badges = new HashMap<>();
    if (asks.isEmpty()) {
      return badges;
    }
    List<Ask> distinct = List.copyOf(new LinkedHashSet<>(asks));
    // Every shard answers for the conversations it holds (0 for the others): the sums are the badges.
    shards.fanOut(jdbi -> jdbi.withHandle(handle -> handle.createQuery("select q.user_id, q.conv_id,"
            + " coalesce(sum(u.unread), 0) as total,"
            + " coalesce(sum(u.unread) filter (where u.conv_id = q.conv_id), 0) as conversation,"
            + " coalesce((select latest_seq from conversations where conv_id = q.conv_id), 0) as latest_seq"
            + " from unnest(:users, :convs) as q(user_id, conv_id)"
            + " left join lateral (select c.conv_id, " + ConversationQueries.UNREAD.replace(":user", "q.user_id")
            + " as unread from conversation_members cm join conversations c on c.conv_id = cm.conv_id"
            + " left join read_positions rp on rp.user_id = cm.user_id and rp.conv_id = c.conv_id"
            + " where cm.user_id = q.user_id) u on true group by q.user_id, q.conv_id")
        .bindArray("users", Long.class, distinct.stream().map(Ask::userId).toList())
        .bindArray("convs", String.class, distinct.stream().map(Ask::convId).toList())
        .map((rs, ctx) -> Map.entry(new Ask(rs.getLong("user_id"), rs.getString("conv_id")),
            new Badge(rs.getLong("total"), rs.getLong("conversation"), rs.getLong("latest_seq"))))
        .list())).forEach(found -> found.forEach(entry -> badges.merge(entry.getKey(), entry.getValue(),
            (a, b) -> new Badge(a.total() + b.total(), a.conversation() + b.conversation(),
                Math.max(a.latestSeq(), b.latestSeq())))));
    return badges;
  }
}
