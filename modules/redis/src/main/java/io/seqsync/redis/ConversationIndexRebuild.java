package io.seqsync.redis;

import io.seqsync.store.IndexSource;
import io.seqsync.store.IndexSource.ConversationRows;
import io.seqsync.store.IndexSource.Countable;
import io.seqsync.store.IndexSource.Membership;
import io.seqsync.store.IndexSource.UserRows;

/**
 * Rebuilds the Redis index of a conversation or of a user from the store of record (an
 * {@link IndexSource}: PostgreSQL), when Redis lost it (FLUSHALL, a restart without persistence, a
 * new Redis): merges what the store holds into whatever the projector wrote meanwhile, then marks
 * the key built. The merges only move forward, so a rebuild racing the projector loses nothing.
 * Thread-safe.
 */
public final class ConversationIndexRebuild {
  private final IndexSource source;
  private final ConversationIndex index;

  public ConversationIndexRebuild(IndexSource source, ConversationIndex index) {
    this.source = source;
    this.index = index;
  }

  /** The conversation's latest message and its countable messages, recalled ones marked. */
  public void conversation(String convId) {
    // The latest countable messages only: a read position below them is answered from the store.
    ConversationRows rows = source.conversation(convId, index.keptCountable());
    try (ConversationIndex.Batch batch = index.batch()) {
      rows.latest().ifPresent(latest -> batch.message(latest, false));
      rows.name().ifPresent(name -> batch.named(convId, name));
      for (Countable countable : rows.countable()) {
        batch.countable(convId, countable.seq(), countable.senderId(), countable.recalled());
      }
      if (rows.countable().size() == index.keptCountable()) {
        batch.raiseFloor(convId, rows.countable().get(rows.countable().size() - 1).seq() - 1);
      }
    }
    index.markBuilt(IndexKeys.conversation(convId));
  }

  /**
   * The user's unread count from the store, for a read position below the countable seqs Redis
   * keeps: other users' countable messages above {@code readSeq}, up to the watermark, not recalled.
   */
  public long unreadFromStore(String convId, long userId, long readSeq) {
    return source.unread(convId, userId, readSeq);
  }

  ConversationIndex index() {
    return index;
  }

  /** The user's conversations by last activity, read positions, drafts and device cursors. */
  public void user(long userId) {
    UserRows rows = source.user(userId);
    try (ConversationIndex.Batch batch = index.batch()) {
      for (Membership membership : rows.memberships()) {
        if (membership.group()) {
          batch.joined(userId, membership.convId()).groupActive(membership.convId(), membership.lastActivity());
        } else {
          batch.listed(userId, membership.convId(), membership.lastActivity());
        }
      }
      rows.reads().forEach(read -> batch.read(userId, read.convId(), read.seq()));
      rows.mentions().forEach(mention -> batch.mentioned(userId, mention.convId(), mention.seq(), true));
      rows.drafts().forEach(draft -> batch.draft(userId, draft.convId(), draft.text(), draft.updatedAt()));
      rows.cursors().forEach(cursor -> batch.cursor(userId, cursor.deviceId(), cursor.convId(), cursor.seq()));
    }
    index.markBuilt(IndexKeys.user(userId));
  }
}
