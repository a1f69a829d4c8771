package io.seqsync.store;

import java.util.List;
import io.seqsync.store.shard.ShardMap;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/** The {@link IndexSource} of record: PostgreSQL's conversations, messages and users' rows. Thread-safe. */
public final class IndexSourceQueries implements IndexSource {
  private final ShardMap shards;

  public IndexSourceQueries(Jdbi jdbi) {
    this(ShardMap.single(jdbi));
  }

  /** Each conversation read from its shard of {@code shards}; a user's rows from every shard. */
  public IndexSourceQueries(ShardMap shards) {
    this.shards = shards;
  }

  @Override
  public ConversationRows conversation(String convId, int keptCountable) {
    return shards.of(convId).withHandle(handle -> new ConversationRows(
        handle.createQuery("select " + MessageQueries.messageColumns("m") + " from conversations c"
                + " join all_messages m on m.conv_id = c.conv_id and m.seq = c.latest_seq where c.conv_id = :conv")
            .bind("conv", convId)
            .map((rs, ctx) -> MessageQueries.message(rs, 1))
            .findOne(),
        handle.createQuery("select name from conversations where conv_id = :conv and name is not null")
            .bind("conv", convId).mapTo(String.class).findOne(),
        handle.createQuery("select seq, sender_id, recalled from all_messages where conv_id = :conv"
                + " and type in (<types>) order by seq desc limit :kept")
            .bind("conv", convId).bindList("types", ConversationQueries.COUNTABLE_TYPES)
            .bind("kept", keptCountable)
            .map((rs, ctx) -> new Countable(rs.getLong("seq"), rs.getLong("sender_id"), rs.getBoolean("recalled")))
            .list()));
  }

  @Override
  public UserRows user(long userId) {
    List<UserRows> perShard = shards.fanOut(jdbi -> user(jdbi, userId));
    return perShard.size() == 1 ? perShard.get(0) : new UserRows(
        perShard.stream().flatMap(rows -> rows.memberships().stream()).toList(),
        perShard.stream().flatMap(rows -> rows.reads().stream()).toList(),
        perShard.stream().flatMap(rows -> rows.mentions().stream()).toList(),
        perShard.stream().flatMap(rows -> rows.drafts().stream()).toList(),
        perShard.stream().flatMap(rows -> rows.cursors().stream()).toList());
  }

  private static UserRows user(Jdbi jdbi, long userId) {
    return jdbi.withHandle(handle -> new UserRows(
        handle.createQuery("select c.conv_id, c.kind, c.last_activity from conversation_members cm"
                + " join conversations c on c.conv_id = cm.conv_id where cm.user_id = :user")
            .bind("user", userId)
            .map((rs, ctx) -> new Membership(rs.getString("conv_id"), "group".equals(rs.getString("kind")),
                rs.getLong("last_activity")))
            .list(),
        positions(handle, "read_positions", userId),
        positions(handle, "mentions", userId),
        handle.createQuery("select conv_id, text, updated_at from drafts where user_id = :user")
            .bind("user", userId)
            .map((rs, ctx) -> new Draft(rs.getString("conv_id"), rs.getString("text"), rs.getLong("updated_at")))
            .list(),
        handle.createQuery("select device_id, conv_id, seq from device_cursors where user_id = :user")
            .bind("user", userId)
            .map((rs, ctx) -> new DeviceCursor(rs.getString("device_id"), rs.getString("conv_id"), rs.getLong("seq")))
            .list()));
  }

  @Override
  public long unread(String convId, long userId, long readSeq) {
    return shards.of(convId).withHandle(handle -> handle.createQuery("select count(*) from all_messages m"
            + " join conversations c on c.conv_id = m.conv_id where m.conv_id = :conv and m.seq > :read"
            + " and m.seq <= c.latest_seq and m.sender_id <> :user and m.type in (<types>) and not m.recalled")
        .bind("conv", convId).bind("read", readSeq).bind("user", userId)
        .bindList("types", ConversationQueries.COUNTABLE_TYPES)
        .mapTo(Long.class).one());
  }

  // A table of (user_id, conv_id, seq) rows: read positions or mentions. The table is one of two constants.
  private static List<Position> positions(Handle handle, String table, long userId) {
    return handle.createQuery("select conv_id, seq from " + table + " where user_id = :user")
        .bind("user", userId)
        .map((rs, ctx) -> new Position(rs.getString("conv_id"), rs.getLong("seq")))
        .list();
  }
}
