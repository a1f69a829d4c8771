package io.seqsync.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import io.seqsync.store.shard.ShardMap;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;

/**
 * The read side of {@code messages}: pages of a conversation by seq (R8, R9, R10, R16), each one
 * statement that range-scans the primary key (conv_id, seq) and reads the watermark
 * {@code conversations.latest_seq} in the same snapshot, so a page never shows a message above
 * the watermark it reports. One extra row is fetched to tell whether more exist. A recalled
 * message is returned with {@link StoredMessage#RECALLED_PLACEHOLDER} as its content (R6), whatever
 * the row holds. The pages are the hot path of every client: they run as plain JDBC inside a Jdbi
 * handle, columns read by index (Jdbi's statement set-up, binding and mapping were about two thirds of
 * the page query's CPU in the ingress, by JFR). Thread-safe: holds only the (thread-safe) Jdbi.
 */
public final class MessageQueries {
  // A message's columns, read by index in message(): keep the order in step.
  private static final String MESSAGE_COLUMNS =
      "msg_id, conv_id, seq, sender_id, sender_device, client_msg_id, type, content, create_time, recalled, attachment,"
      + " edited_at, reply_to, mentions, reactions";
  // A page row: the watermark and the hot floor, then a message (all null when the conversation has
  // none in range).
  private static final String COLUMNS = "c.latest_seq, c.archived_seq, " + messageColumns("m");

  // Forward: after < seq <= least(until, watermark), ascending. Parameters: after, until, rows, conv.
  private static final String FORWARD = "select " + COLUMNS + " from conversations c left join lateral ("
      + " select * from messages where messages.conv_id = c.conv_id and messages.seq > ?"
      + " and messages.seq <= least(?, c.latest_seq) order by messages.seq limit ?) m on true"
      + " where c.conv_id = ? order by m.seq";

  // Backward: floor < seq < before and seq <= watermark, the highest first (reversed in Java).
  // Parameters: before, floor, rows, conv.
  private static final String BACKWARD = "select " + COLUMNS + " from conversations c left join lateral ("
      + " select * from messages where messages.conv_id = c.conv_id and messages.seq < ?"
      + " and messages.seq > ? and messages.seq <= c.latest_seq order by messages.seq desc limit ?) m on true"
      + " where c.conv_id = ? order by m.seq desc";

  /**
   * One page of a conversation's messages, ascending by seq, read in one statement together with
   * the conversation's committed watermark. {@code hasMore}: for a forward page (after, range)
   * whether more messages follow the last one within the asked range; for a backward page (before,
   * last) whether older messages precede the first one in the hot table. {@code latestSeq} is
   * {@code conversations.latest_seq} (0 for a conversation that has no row yet); {@code archivedSeq}
   * the hot floor: every seq up to it is in the archive, not here (R22). Immutable.
   */
  public record Page(List<StoredMessage> messages, boolean hasMore, long latestSeq, long archivedSeq) {
    public Page {
      messages = List.copyOf(messages);
    }

    /** The seq of the last message, or {@code fallback} for an empty page. */
    public long lastSeqOr(long fallback) {
      return messages.isEmpty() ? fallback : messages.get(messages.size() - 1).seq();
    }
  }

  private final ShardMap shards;

  /** One database for every conversation. */
  public MessageQueries(Jdbi jdbi) {
    this(ShardMap.single(jdbi));
  }

  /** Each conversation's rows in its shard of {@code shards}. */
  public MessageQueries(ShardMap shards) {
    this.shards = shards;
  }

  /** Messages with seq > {@code afterSeq}, at most {@code limit}, ascending (R8). */
  public Page after(String convId, long afterSeq, int limit) {
    return range(convId, afterSeq, Long.MAX_VALUE, limit);
  }

  /** Messages with {@code afterSeq} < seq <= {@code untilSeq}, at most {@code limit}, ascending (R9). */
  public Page range(String convId, long afterSeq, long untilSeq, int limit) {
    return page(FORWARD, afterSeq, untilSeq, convId, limit, false);
  }

  /** The latest {@code count} messages, ascending; hasMore tells whether older ones exist (R16). */
  public Page last(String convId, int count) {
    return last(convId, count, 0);
  }

  /** The latest {@code count} messages above seq {@code floor}; hasMore: whether older ones above it exist. */
  public Page last(String convId, int count, long floor) {
    return before(convId, Long.MAX_VALUE, count, floor);
  }

  /**
   * The {@code limit} messages just below seq {@code beforeSeq}, ascending; hasMore tells whether
   * older ones exist (R16: paging backwards).
   */
  public Page before(String convId, long beforeSeq, int limit) {
    return before(convId, beforeSeq, limit, 0);
  }

  /**
   * The {@code limit} messages with {@code floor} < seq < {@code beforeSeq}, ascending; hasMore tells
   * whether older ones above the floor exist (a group member's history starts where they joined).
   */
  public Page before(String convId, long beforeSeq, int limit, long floor) {
    return page(BACKWARD, beforeSeq, floor, convId, limit, true);
  }

  /** The message at {@code seq}, if it is stored. */
  public Optional<StoredMessage> bySeq(String convId, long seq) {
    return shards.of(convId).withHandle(handle -> handle.createQuery(
            "select " + MESSAGE_COLUMNS + " from messages where conv_id = :conv and seq = :seq")
        .bind("conv", convId).bind("seq", seq)
        .map((rs, ctx) -> message(rs, 1))
        .findOne());
  }

  /** The conversation's committed watermark, 0 when it has no row yet. */
  public long latestSeq(String convId) {
    return shards.of(convId).withHandle(handle -> handle.createQuery("select latest_seq from conversations where conv_id = :conv")
        .bind("conv", convId).mapTo(Long.class).findOne().orElse(0L));
  }

  // One statement: the two bounds, the rows (limit + 1, to tell hasMore) and the conversation.
  private Page page(String sql, long first, long second, String convId, int limit, boolean backward) {
    requireLimit(limit);
    return shards.of(convId).withHandle(handle -> {
      // pgjdbc caches the statement per connection by its text, server-prepared after a few uses.
      try (PreparedStatement statement = handle.getConnection().prepareStatement(sql)) {
        statement.setLong(1, first);
        statement.setLong(2, second);
        statement.setInt(3, limit + 1);
        statement.setString(4, convId);
        try (ResultSet rs = statement.executeQuery()) {
          return page(rs, limit, backward);
        }
      } catch (SQLException e) {
        // A JdbiException, as the other queries throw.
        throw new UnableToExecuteStatementException("reading a page of " + convId, e, null);
      }
    });
  }

  private static Page page(ResultSet rs, int limit, boolean backward) throws SQLException {
    if (!rs.next()) {
      return new Page(List.of(), false, 0, 0);
    }
    long latestSeq = rs.getLong(1);
    long archivedSeq = rs.getLong(2);
    List<StoredMessage> messages = new ArrayList<>(Math.min(limit, 100) + 1);
    do {
      rs.getLong(5);
      if (!rs.wasNull()) { // null: the conversation has no message in range
        messages.add(message(rs, 3));
      }
    } while (rs.next());
    boolean hasMore = messages.size() > limit;
    if (hasMore) {
      messages.remove(messages.size() - 1);
    }
    if (backward) {
      Collections.reverse(messages);
    }
    return new Page(messages, hasMore, latestSeq, archivedSeq);
  }

  private static void requireLimit(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be positive: " + limit);
    }
  }

  /** A message's columns of the table aliased {@code alias}, in the order {@link #message} reads. */
  public static String messageColumns(String alias) {
    return alias + "." + MESSAGE_COLUMNS.replace(", ", ", " + alias + ".");
  }

  /** The message whose columns ({@link #messageColumns}) start at column {@code first}. */
  public static StoredMessage message(ResultSet rs, int first) throws SQLException {
    boolean recalled = rs.getBoolean(first + 9);
    return new StoredMessage(rs.getLong(first), rs.getString(first + 1), rs.getLong(first + 2), rs.getLong(first + 3),
        rs.getString(first + 4), rs.getString(first + 5), rs.getString(first + 6),
        recalled ? StoredMessage.RECALLED_PLACEHOLDER : rs.getString(first + 7), rs.getLong(first + 8), recalled,
        // A recalled message's object is no longer shown, nor served (docs/design.md, "Attachments").
        recalled ? null : rs.getString(first + 10), recalled ? null : MessageActionsQueries.state(rs, first + 11));
  }

  /** {@code page} with its messages' quotes and the caller's reactions looked up (message actions). */
  public Page withActions(Page page, String convId, long userId) {
    return new Page(new MessageActionsQueries(shards).decorate(convId, page.messages(), userId), page.hasMore(),
        page.latestSeq(), page.archivedSeq());
  }
}
