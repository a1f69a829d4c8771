package io.seqsync.store;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import io.seqsync.store.shard.ShardMap;
import org.jdbi.v3.core.Jdbi;

/**
 * A user's list settings per conversation (mute, pin; table {@code conversation_settings},
 * projected from the event log). One statement per method. Thread-safe: holds only the Jdbi.
 */
public final class ListSettingsQueries {
  /** Muted: no push notifications; pinned: at the top of the list. Immutable. */
  public record ListSettings(boolean muted, boolean pinned) {
    public static final ListSettings DEFAULT = new ListSettings(false, false);
  }

  private final ShardMap shards;

  /** One database for every conversation. */
  public ListSettingsQueries(Jdbi jdbi) {
    this(ShardMap.single(jdbi));
  }

  /** Each conversation's rows in its shard of {@code shards}. */
  public ListSettingsQueries(ShardMap shards) {
    this.shards = shards;
  }

  /** Of the (user, conversation) pairs, given as two lists of one length, those the user muted: "userId convId" each. */
  public Set<String> muted(List<Long> userIds, List<String> convIds) {
    Set<String> muted = new HashSet<>();
    if (!userIds.isEmpty()) {
      // Each pair's row is in its conversation's shard, and only there: every shard's matches, together.
      shards.fanOut(jdbi -> jdbi.withHandle(handle -> handle.createQuery("select s.user_id, s.conv_id from conversation_settings s"
              + " join unnest(:users, :convs) as q(user_id, conv_id) on q.user_id = s.user_id and q.conv_id = s.conv_id"
              + " where s.muted")
          .bindArray("users", Long.class, userIds).bindArray("convs", String.class, convIds)
          .map((rs, ctx) -> rs.getLong("user_id") + " " + rs.getString("conv_id"))
          .list())).forEach(muted::addAll);
    }
    return muted;
  }

  /** The user's settings of those conversations that have any (others are {@link ListSettings#DEFAULT}). */
  public Map<String, ListSettings> of(long userId, Collection<String> convIds) {
    Map<String, ListSettings> settings = new HashMap<>();
    if (convIds.isEmpty()) {
      return settings;
    }
    shards.fanOut(jdbi -> jdbi.withHandle(handle -> handle.createQuery("select conv_id, muted, pinned from conversation_settings"
            + " where user_id = :user and conv_id = any(:convs)")
        .bind("user", userId).bindArray("convs", String.class, convIds)
        .map((rs, ctx) -> Map.entry(rs.getString("conv_id"), new ListSettings(rs.getBoolean("muted"),
            rs.getBoolean("pinned"))))
        .list())).forEach(found -> found.forEach(entry -> settings.put(entry.getKey(), entry.getValue())));
    return settings;
  }
}
