package io.seqsync.bench.http;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * PostgreSQL's own counters of the app's database (pg_stat_database), to count statements per
 * request: every statement the app runs outside an explicit transaction is one committed
 * transaction. PostgreSQL flushes a backend's counters at most once a second, so a delta over a
 * phase of tens of seconds is good to a few percent.
 */
final class PgStats implements AutoCloseable {
  /** Counters at one moment. */
  record Snapshot(long commits, long rollbacks, long tuplesReturned, long tuplesFetched, long tuplesInserted,
      long blocksRead, long blocksHit) {}

  /** Counters over a phase. */
  record Delta(long commits, long rollbacks, long tuplesFetched, long tuplesInserted, long blocksRead, long blocksHit) {
    static final Delta NONE = new Delta(0, 0, 0, 0, 0, 0);
  }

  private final Connection connection;

  PgStats(String jdbcUrl, String user, String password) {
    try {
      connection = DriverManager.getConnection(jdbcUrl, user, password);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot connect to PostgreSQL: " + e.getMessage(), e);
    }
  }

  Snapshot snapshot() {
    try (Statement statement = connection.createStatement()) {
      // Take the newest counters, not this transaction's cached snapshot of them.
      statement.execute("select pg_stat_clear_snapshot()");
      try (ResultSet rs = statement.executeQuery("select xact_commit, xact_rollback, tup_returned, tup_fetched,"
          + " tup_inserted, blks_read, blks_hit from pg_stat_database where datname = current_database()")) {
        rs.next();
        return new Snapshot(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5), rs.getLong(6),
            rs.getLong(7));
      }
    } catch (SQLException e) {
      return null;
    }
  }

  Delta since(Snapshot start) {
    Snapshot end = snapshot();
    if (start == null || end == null) {
      return Delta.NONE;
    }
    // The two statements of each snapshot() are committed transactions too.
    return new Delta(end.commits - start.commits - 2, end.rollbacks - start.rollbacks,
        end.tuplesFetched - start.tuplesFetched, end.tuplesInserted - start.tuplesInserted,
        end.blocksRead - start.blocksRead, end.blocksHit - start.blocksHit);
  }

  /** A setting of the server ({@code show name}). */
  String setting(String name) {
    try (Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery("show " + name)) {
      rs.next();
      return rs.getString(1);
    } catch (SQLException e) {
      return "?";
    }
  }

  @Override
  public void close() {
    try {
      connection.close();
    } catch (SQLException e) {
      // closing anyway
    }
  }
}
