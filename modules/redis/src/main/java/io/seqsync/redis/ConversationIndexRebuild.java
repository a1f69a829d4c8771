package io.seqsync.redis;

import io.seqsync.store.ConversationQueries;
import io.seqsync.store.MessageQueries;
import java.util.List;
import io.seqsync.store.shard.ShardMap;
import org.jdbi.v3.core.Jdbi;

/**
 * Rebuilds the Redis index of a conversation or of a user from PostgreSQL, the store of record,
 * when Redis lost it (FLUSHALL, a restart without persistence, a new Redis): merges what
 * PostgreSQL holds into whatever the projector wrote meanwhile, then marks the key built. The
 * merges only move forward, so a rebuild racing the projector loses nothing. Thread-safe.
 */
public final class ConversationIndexRebuild {
  private final ShardMap shards;
  private final ConversationIndex index;

  public ConversationIndexRebuild(Jdbi jdbi, ConversationIndex index) {
    this(ShardMap.single(jdbi), index);
  }

  /** Each conversation read from its shard of {@code shards}; a user's rows from every shard. */
  public ConversationIndexRebuild(ShardMap shards, ConversationIndex index) {
    this.shards = shards;
    this.index = index;
  }

  /** The conversation's latest message and its countable messages, recalled ones marked. */
  public void conversation(String convId) {
    try (ConversationIndex.Batch batch = index.batch()) {
      shards.of(convId).useHandle(handle -> {
        handle.createQuery("select " + MessageQueries.messageColumns("m") + " from conversations c"
                + " join all_messages m on m.conv_id = c.conv_id and m.seq = c.latest_seq where c.conv_id = :conv")
            .bind("conv", convId)
            .map((rs, ctx) -> MessageQueries.message(rs, 1))
            .findOne().ifPresent(latest -> batch.message(latest, false));
        handle.createQuery("select name from conversations where conv_id = :conv and name is not null")
            .bind("conv", convId).mapTo(String.class).findOne().ifPresent(name -> batch.named(convId, name));
        // The latest countable messages only: a read position below them is answered from here.
        List<Long> loaded = handle.createQuery("select seq, sender_id, recalled from all_messages where conv_id = :conv"
                + " and type in (<types>) order by seq desc limit :kept")
            .bind("conv", convId).bindList("types", ConversationQueries.COUNTABLE_TYPES)
            .bind("kept", index.keptCountable())
            .map((rs, ctx) -> {
              batch.countable(convId, rs.getLong("seq"), rs.getLong("sender_id"), rs.getBoolean("recalled"));
              return rs.getLong("seq");
            })
            .list();
        if (loaded.size() == index.keptCountable()) {
          batch.raiseFloor(convId, loaded.get(loaded.size() - 1) - 1);
        }
      });
    }
    index.markBuilt(IndexKeys.conversation(convId));
  }

  /**
   * The user's unread count from PostgreSQL, for a read position below the countable seqs Redis
   * keeps: other users' countable messages above {@code readSeq}, up to the watermark, not recalled.
   */
  public long unreadFromStore(String convId, long userId, long readSeq) {
    return shards.of(convId).withHandle(handle -> handle.createQuery("select count(*) from all_messages m"
            + " join conversations c on c.conv_id = m.conv_id where m.conv_id = :conv and m.seq > :read"
            + " and m.seq <= c.latest_seq and m.sender_id <> :user and m.type in (<types>) and not m.recalled")
        .bind("conv", convId).bind("read", readSeq).bind("user", userId)
        .bindList("types", ConversationQueries.COUNTABLE_TYPES)
        .mapTo(Long.class).one());
  }

  ConversationIndex index() {
    return index;
  }

  /** The user's conversations by last activity, read positions, drafts and device cursors. */
  public void user(long userId) {
    // Shard after shard: the batch is one writer's.
    try (ConversationIndex.Batch batch = index.batch()) {
      shards.all().forEach(jdbi -> jdbi.useHandle(handle -> {
        handle.createQuery("select c.conv_id, c.kind, c.last_activity from conversation_members cm"
                + " join conversations c on c.conv_id = cm.conv_id where cm.user_id = :user")
            .bind("user", userId)
            .map((rs, ctx) -> "group".equals(rs.getString("kind"))
                ? batch.joined(userId, rs.getString("conv_id")).groupActive(rs.getString("conv_id"), rs.getLong("last_activity"))
                : batch.listed(userId, rs.getString("conv_id"), rs.getLong("last_activity")))
            .list();
        handle.createQuery("select conv_id, seq from read_positions where user_id = :user")
            .bind("user", userId)
            .map((rs, ctx) -> batch.read(userId, rs.getString("conv_id"), rs.getLong("seq")))
            .list();
        handle.createQuery("select conv_id, seq from mentions where user_id = :user")
            .bind("user", userId)
            .map((rs, ctx) -> batch.mentioned(userId, rs.getString("conv_id"), rs.getLong("seq"), true))
            .list();
        handle.createQuery("select conv_id, text, updated_at from drafts where user_id = :user")
            .bind("user", userId)
            .map((rs, ctx) -> batch.draft(userId, rs.getString("conv_id"), rs.getString("text"), rs.getLong("updated_at")))
            .list();
        handle.createQuery("select device_id, conv_id, seq from device_cursors where user_id = :user")
            .bind("user", userId)
            .map((rs, ctx) -> batch.cursor(userId, rs.getString("device_id"), rs.getString("conv_id"), rs.getLong("seq")))
            .list();
      }));
    }
    index.markBuilt(IndexKeys.user(userId));
  }
}
