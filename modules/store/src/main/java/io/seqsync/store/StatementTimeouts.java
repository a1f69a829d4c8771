package io.seqsync.store;

import java.sql.SQLException;
import java.util.concurrent.atomic.LongAdder;
import org.jdbi.v3.core.statement.SqlLogger;
import org.jdbi.v3.core.statement.StatementContext;

/**
 * Counts the statements PostgreSQL cancelled at their {@code statement_timeout} (SQLSTATE 57014),
 * as a Jdbi {@link SqlLogger} of the pool that sets one. Thread-safe.
 */
public final class StatementTimeouts implements SqlLogger {
  private static final String QUERY_CANCELED = "57014";

  private final LongAdder count = new LongAdder();

  /** Whether {@code failure} (or one of its causes) is a statement cancelled at its timeout. */
  public static boolean isTimeout(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof SQLException sql && QUERY_CANCELED.equals(sql.getSQLState())) {
        return true;
      }
    }
    return false;
  }

  @Override
  public void logException(StatementContext context, SQLException failure) {
    if (isTimeout(failure)) {
      count.increment();
    }
  }

  /** Statements cancelled at their timeout so far. */
  public long count() {
    return count.sum();
  }
}
