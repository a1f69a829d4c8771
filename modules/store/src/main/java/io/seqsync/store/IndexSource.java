package io.seqsync.store;

import java.util.List;
import java.util.Optional;

/**
 * What the Redis conversation index is rebuilt from when Redis lost it: the rows of record that
 * the redis module reads through this interface, so that it speaks Redis only
 * ({@link IndexSourceQueries} reads them from PostgreSQL).
 */
public interface IndexSource {
  /** A countable message of a conversation (one that adds to an unread count). */
  record Countable(long seq, long senderId, boolean recalled) {}

  /**
   * A conversation's latest message, its name (groups) and its latest countable messages, the
   * newest first, at most as many as asked.
   */
  record ConversationRows(Optional<StoredMessage> latest, Optional<String> name, List<Countable> countable) {}

  /** A conversation a user is in: {@code group} for a group, and when it was last active. */
  record Membership(String convId, boolean group, long lastActivity) {}

  /** A position of a user in a conversation: a read position or a mention's seq. */
  record Position(String convId, long seq) {}

  record Draft(String convId, String text, long updatedAt) {}

  record DeviceCursor(String deviceId, String convId, long seq) {}

  /** What the index keeps of one user. */
  record UserRows(List<Membership> memberships, List<Position> reads, List<Position> mentions, List<Draft> drafts,
      List<DeviceCursor> cursors) {}

  /** The conversation's rows, with its {@code keptCountable} latest countable messages at most. */
  ConversationRows conversation(String convId, int keptCountable);

  /** The user's rows. */
  UserRows user(long userId);

  /**
   * The user's unread count, for a read position below the countable seqs Redis keeps: other
   * users' countable messages above {@code readSeq}, up to the watermark, not recalled.
   */
  long unread(String convId, long userId, long readSeq);
}
