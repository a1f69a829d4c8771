package io.seqsync.bench.peer;

import io.seqsync.bench.BenchSupport;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;

/** A server's database in the machine's PostgreSQL (127.0.0.1:5432, trust): what the benchmark counts in it. */
final class PeerDatabase {
  private final String jdbcUrl;

  PeerDatabase(String name) {
    this.jdbcUrl = "jdbc:postgresql://127.0.0.1:5432/" + name;
  }

  String jdbcUrl() {
    return jdbcUrl;
  }

  /** The single number {@code sql} selects. */
  long count(String sql) throws SQLException {
    try (Connection connection = DriverManager.getConnection(jdbcUrl, "postgres", "");
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(sql)) {
      rows.next();
      return rows.getLong(1);
    }
  }

  /** {@link #count} every half second until it reaches {@code expected} or the time is up; its last value. */
  long awaitCount(String sql, long expected, long timeoutMillis) throws SQLException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    long counted = count(sql);
    while (counted < expected && System.nanoTime() < deadline) {
      BenchSupport.sleep(500);
      counted = count(sql);
    }
    return counted;
  }
}
