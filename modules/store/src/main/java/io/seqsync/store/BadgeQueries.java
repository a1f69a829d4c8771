package io.seqsync.store;

import org.jdbi.v3.core.Jdbi;

/**
 * A user's unread counts for a push notification's badge, from the projection: over all their
 * conversations and in one, with that conversation's committed watermark (so that the caller can
 * tell whether the projection has reached a message yet). One statement. Thread-safe.
 */
public final class BadgeQueries {
  /** {@code total}: unread messages over all conversations; {@code conversation}: in the one asked about. */
  public record Badge(long total, long conversation, long latestSeq) {}

  private final Jdbi jdbi;

  public BadgeQueries(Jdbi jdbi) {
    this.jdbi = jdbi;
  }

  public Badge of(long userId, String convId) {
    return jdbi.withHandle(handle -> handle.createQuery("select coalesce(sum(u.unread), 0) as total,"
            + " coalesce(sum(u.unread) filter (where u.conv_id = :conv), 0) as conversation,"
            + " coalesce((select latest_seq from conversations where conv_id = :conv), 0) as latest_seq"
            + " from (select c.conv_id, " + ConversationQueries.UNREAD + " as unread from conversation_members cm"
            + " join conversations c on c.conv_id = cm.conv_id"
            + " left join read_positions rp on rp.user_id = cm.user_id and rp.conv_id = c.conv_id"
            + " where cm.user_id = :user) u")
        .bind("user", userId).bind("conv", convId)
        .map((rs, ctx) -> new Badge(rs.getLong("total"), rs.getLong("conversation"), rs.getLong("latest_seq")))
        .one());
  }
}
