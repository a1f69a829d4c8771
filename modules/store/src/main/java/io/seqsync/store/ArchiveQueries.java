package io.seqsync.store;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import io.seqsync.store.shard.ShardMap;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.StatementException;

/**
 * The read side of {@code archived_messages} (R22): a conversation's archived history, newest
 * first, optionally from a point in time or below a seq. Each page runs with its own statement
 * timeout (the archive's latency budget), so a slow archive read gives up rather than hold a
 * connection the hot tier needs. Thread-safe: holds only the (thread-safe) Jdbi.
 */
public final class ArchiveQueries {
  /** A page, newest first; hasMore: older archived messages exist (above the floor). Immutable. */
  public record Page(List<StoredMessage> messages, boolean hasMore) {
    public Page {
      messages = List.copyOf(messages);
    }
  }

  /** The archive read took longer than its budget. */
  public static final class TooSlow extends RuntimeException {
    TooSlow(Duration budget, Throwable cause) {
      super("an archive read took longer than " + budget.toMillis() + " ms", cause);
    }
  }

  private final ShardMap shards;
  private final Duration budget;

  /** One database for every conversation. */
  public ArchiveQueries(Jdbi jdbi, Duration budget) {
    this(ShardMap.single(jdbi), budget);
  }

  /** Each conversation's rows in its shard of {@code shards}. */
  public ArchiveQueries(ShardMap shards, Duration budget) {
    this.shards = shards;
    this.budget = budget;
  }

  /**
   * At most {@code limit} archived messages of {@code convId} created before {@code beforeMillis}
   * with {@code floor} < seq < {@code beforeSeq}, newest first.
   */
  public Page page(String convId, long beforeMillis, long beforeSeq, long floor, int limit) {
    try {
      return shards.of(convId).inTransaction(handle -> {
        handle.execute("select set_config('statement_timeout', ?, true)", budget.toMillis() + "ms");
        List<StoredMessage> messages = new ArrayList<>(handle.createQuery("select " + MessageQueries.messageColumns("a")
                + " from archived_messages a where a.conv_id = ? and a.create_time < ? and a.seq < ? and a.seq > ?"
                + " order by a.seq desc limit ?")
            .bind(0, convId).bind(1, beforeMillis).bind(2, beforeSeq).bind(3, floor).bind(4, limit + 1)
            .map((rs, ctx) -> MessageQueries.message(rs, 1))
            .list());
        boolean hasMore = messages.size() > limit;
        return new Page(hasMore ? messages.subList(0, limit) : messages, hasMore);
      });
    } catch (StatementException e) {
      if (StatementTimeouts.isTimeout(e)) {
        throw new TooSlow(budget, e);
      }
      throw e;
    }
  }
}
