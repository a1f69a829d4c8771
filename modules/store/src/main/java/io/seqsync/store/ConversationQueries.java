package io.seqsync.store;

import io.seqsync.events.ConvId;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import io.seqsync.store.shard.ShardMap;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * The read side of conversations, memberships, device cursors and read positions. Every method is
 * one statement. Thread-safe: holds only the (thread-safe) Jdbi.
 */
public final class ConversationQueries {
  /** The message types that count as unread: what people send, not notices. */
  public static final List<String> COUNTABLE_TYPES = List.of("text", "image", "file");

  // Over both tiers (R22): a message older than the hot window is no less unread.
  static final String UNREAD = "(select count(*) from all_messages m where m.conv_id = c.conv_id"
      + " and m.seq > coalesce(rp.seq, 0) and m.seq <= c.latest_seq and m.sender_id <> :user"
      + " and m.type in ('text', 'image', 'file') and not m.recalled)";

  // The conversation list (R20) as Redis orders it: last activity, then convId, both descending, by
  // bytes (collation "C", as Redis and ListCursor compare).
  private static final String LIST = "select c.conv_id, c.name, c.latest_seq, coalesce(rp.seq, 0) as read_seq, "
      + UNREAD + " as unread, d.text as draft, c.last_activity, " + MessageQueries.messageColumns("m")
      + ", (select count(*) from mentions mm where mm.user_id = cm.user_id and mm.conv_id = c.conv_id"
      + " and mm.seq > coalesce(rp.seq, 0)) as mention_count"
      + " from conversation_members cm"
      + " join conversations c on c.conv_id = cm.conv_id"
      + " left join read_positions rp on rp.user_id = cm.user_id and rp.conv_id = c.conv_id"
      + " left join drafts d on d.user_id = cm.user_id and d.conv_id = c.conv_id"
      + " left join all_messages m on m.conv_id = c.conv_id and m.seq = c.latest_seq"
      + " where cm.user_id = :user and (cast(:activity as bigint) is null"
      + " or (c.last_activity, c.conv_id collate \"C\") < (:activity, cast(:conv as text) collate \"C\"))"
      + " order by c.last_activity desc, c.conv_id collate \"C\" desc limit :limit";

  /** Where a user stands with a conversation. */
  public enum Membership {
    /** The user belongs to the conversation. */
    MEMBER,
    /** The conversation exists (or, for a direct one, could exist) and the user is not in it. */
    NOT_MEMBER,
    /** A group that does not exist. */
    NO_SUCH_CONVERSATION
  }

  /**
   * One conversation of a handshake answer (R13): its committed watermark, the asking device's
   * server-side delivery cursor (R11), the user's read position (R18) and the user's unread
   * count. Immutable.
   */
  public record SyncRow(String convId, long latestSeq, long deviceCursor, long readSeq, long unread) {}

  // One row even for a direct conversation nobody has written to yet (its draft may exist already).
  private static final String ACTIVATION = "select q.conv_id, c.kind, c.name, coalesce(c.latest_seq, 0) as latest_seq,"
      + " coalesce(dc.seq, 0) as device_cursor, coalesce(rp.seq, 0) as read_seq,"
      + " coalesce(" + UNREAD + ", 0) as unread, d.text as draft"
      + " from (select cast(:conv as text) as conv_id) q"
      + " left join conversations c on c.conv_id = q.conv_id"
      + " left join device_cursors dc on dc.user_id = :user and dc.device_id = :device and dc.conv_id = q.conv_id"
      + " left join read_positions rp on rp.user_id = :user and rp.conv_id = q.conv_id"
      + " left join drafts d on d.user_id = :user and d.conv_id = q.conv_id";

  /**
   * What a device needs when it opens a conversation (R14): the committed watermark, its own
   * server-side cursor (so a client whose ack was lost re-sends it), the user's read position,
   * unread count and draft, and a group's name and members (null for a direct conversation).
   */
  public record Activation(String convId, String kind, String name, long latestSeq, long deviceCursor, long readSeq,
      long unread, String draft, List<Long> members) {}

  private final ShardMap shards;

  /** One database for every conversation. */
  public ConversationQueries(Jdbi jdbi) {
    this(ShardMap.single(jdbi));
  }

  /** Each conversation's rows in its shard of {@code shards}. */
  public ConversationQueries(ShardMap shards) {
    this.shards = shards;
  }

  /**
   * Where a user stands with a conversation, and from which seq on its history is theirs: a group
   * member sees messages from the notice that added them ({@code joinedSeq}) on; the two users of a
   * direct conversation see all of it (0). Immutable.
   */
  public record Access(Membership membership, long joinedSeq) {}

  /** Whether {@code userId} belongs to {@code convId}: {@link #access}'s membership. */
  public Membership membership(ConvId convId, long userId) {
    return access(convId, userId).membership();
  }

  /**
   * Whether {@code userId} belongs to {@code convId} and since when. A direct conversation's
   * members are the two users its id names, whether or not it has a row yet; a group's are its
   * {@code conversation_members} rows.
   */
  public Access access(ConvId convId, long userId) {
    if (convId.kind() == ConvId.Kind.DIRECT) {
      return new Access(convId.namesUser(userId) ? Membership.MEMBER : Membership.NOT_MEMBER, 0);
    }
    return shards.of(convId.value()).withHandle(handle -> handle.createQuery("select"
            + " exists (select 1 from conversations where conv_id = :conv) as known,"
            + " (select joined_seq from conversation_members where conv_id = :conv and user_id = :user) as joined_seq")
        .bind("conv", convId.value()).bind("user", userId)
        .map((rs, ctx) -> {
          long joinedSeq = rs.getLong("joined_seq");
          if (!rs.wasNull()) {
            return new Access(Membership.MEMBER, joinedSeq);
          }
          return new Access(rs.getBoolean("known") ? Membership.NOT_MEMBER : Membership.NO_SUCH_CONVERSATION, 0);
        })
        .one());
  }

  /** Those of {@code userIds} who are members of {@code convId}. */
  public Set<Long> membersAmong(String convId, Collection<Long> userIds) {
    if (userIds.isEmpty()) {
      return Set.of();
    }
    return shards.of(convId).withHandle(handle -> handle.createQuery("select user_id from conversation_members"
            + " where conv_id = :conv and user_id = any(:users)")
        .bind("conv", convId).bindArray("users", Long.class, userIds)
        .mapTo(Long.class).collect(Collectors.toCollection(HashSet::new)));
  }

  /** The device's delivery cursor in the conversation (R11), 0 when it has none. */
  public long deviceCursor(long userId, String deviceId, String convId) {
    return shards.of(convId).withHandle(handle -> handle.createQuery("select seq from device_cursors"
            + " where user_id = :user and device_id = :device and conv_id = :conv")
        .bind("user", userId).bind("device", deviceId).bind("conv", convId)
        .mapTo(Long.class).findOne().orElse(0L));
  }

  /** The user's read position in the conversation (R18), 0 when it has none. */
  public long readSeq(long userId, String convId) {
    return shards.of(convId).withHandle(handle -> handle.createQuery("select seq from read_positions"
            + " where user_id = :user and conv_id = :conv")
        .bind("user", userId).bind("conv", convId)
        .mapTo(Long.class).findOne().orElse(0L));
  }

  /** The members of the group {@code convId} by user id (a direct conversation's two come from its id). */
  public List<Long> members(String convId) {
    return shards.of(convId).withHandle(handle -> members(handle, convId));
  }

  /** Everyone in {@code convId} by user id: see {@link #members(Handle, ConvId)} (a direct one reads nothing). */
  public List<Long> members(ConvId convId) {
    return convId.kind() == ConvId.Kind.DIRECT ? convId.directUsers() : members(convId.value());
  }

  /**
   * Everyone in {@code convId}, by user id: a direct conversation's two users from its id, a group's
   * {@code conversation_members} rows read through {@code handle} (the conversation's shard).
   */
  public static List<Long> members(Handle handle, ConvId convId) {
    return convId.kind() == ConvId.Kind.DIRECT ? convId.directUsers() : members(handle, convId.value());
  }

  static List<Long> members(Handle handle, String convId) {
    return handle.createQuery("select user_id from conversation_members where conv_id = :conv order by user_id")
        .bind("conv", convId).mapTo(Long.class).list();
  }

  /** The activation of {@code convId} for the user's device (R14); the caller checked membership. */
  public Activation activation(long userId, String deviceId, ConvId convId) {
    return shards.of(convId.value()).withHandle(handle -> {
      List<Long> members = convId.kind() == ConvId.Kind.GROUP
          ? members(handle, convId.value())
          : null;
      String kind = convId.kind() == ConvId.Kind.GROUP ? "group" : "direct";
      return handle.createQuery(ACTIVATION)
          .bind("conv", convId.value()).bind("user", userId).bind("device", deviceId)
          .map((rs, ctx) -> new Activation(convId.value(), kind, rs.getString("name"), rs.getLong("latest_seq"),
              rs.getLong("device_cursor"), rs.getLong("read_seq"), rs.getLong("unread"), rs.getString("draft"), members))
          .one();
    });
  }

  /**
   * Up to {@code limit} conversations of the user's list after {@code cursor} (null: from the most
   * recent), from PostgreSQL: what the list answers while Redis cannot (the redis module's ConversationList),
   * in the same order and with the same cursors. Unread counts as the handshake does. With shards:
   * the first {@code limit} of every shard's, in parallel, merged in the list's order.
   */
  public List<ListEntry.Ranked> list(long userId, int limit, ListCursor cursor) {
    List<List<ListEntry.Ranked>> perShard = shards.fanOut(jdbi -> list(jdbi, userId, limit, cursor));
    if (perShard.size() == 1) {
      return perShard.get(0);
    }
    return perShard.stream().flatMap(List::stream).sorted(ListEntry.Ranked.LIST_ORDER).limit(limit).toList();
  }

  private static List<ListEntry.Ranked> list(Jdbi jdbi, long userId, int limit, ListCursor cursor) {
    return jdbi.withHandle(handle -> handle.createQuery(LIST)
        .bind("user", userId).bind("limit", limit)
        .bind("activity", cursor == null ? null : cursor.activity())
        .bind("conv", cursor == null ? null : cursor.convId())
        .map((rs, ctx) -> {
          long latestSeq = rs.getLong("latest_seq");
          StoredMessage last = rs.getObject("msg_id") == null ? null : MessageQueries.message(rs, 8);
          return new ListEntry.Ranked(new ListEntry(rs.getString("conv_id"), rs.getString("name"),
              latestSeq, last, rs.getLong("read_seq"), rs.getLong("unread"), rs.getString("draft"),
              last == null ? 0 : last.createTime(), rs.getLong("mention_count")), rs.getLong("last_activity"));
        })
        .list());
  }

  /** Whether every shard's PostgreSQL answers a trivial query (for health checks). */
  public boolean ping() {
    return shards.fanOut(jdbi -> jdbi.withHandle(handle -> handle.createQuery("select 1").mapTo(Integer.class).one()))
        .stream().allMatch(one -> one == 1);
  }
}
