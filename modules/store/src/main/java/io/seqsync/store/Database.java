package io.seqsync.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import org.jdbi.v3.core.Jdbi;

/**
 * A PostgreSQL connection pool and its Jdbi. Thread-safe. {@link #open} is the pool of the
 * projectors and background jobs, with no statement timeout, and applies the schema migrations, so
 * every component sees the current schema; {@link #openRequests} is the pool of what users drive,
 * every statement under a {@code statement_timeout}.
 */
public final class Database implements AutoCloseable {
  private final HikariDataSource dataSource;
  private final Jdbi jdbi;
  private final StatementTimeouts timeouts;

  private Database(HikariDataSource dataSource) {
    this(dataSource, new StatementTimeouts());
  }

  private Database(HikariDataSource dataSource, StatementTimeouts timeouts) {
    this.dataSource = dataSource;
    this.timeouts = timeouts;
    this.jdbi = Jdbi.create(dataSource);
    jdbi.setSqlLogger(timeouts);
  }

  /** Opens a pool of at most {@code poolSize} connections without a statement timeout and migrates the schema. */
  public static Database open(String jdbcUrl, String user, String password, int poolSize) {
    Database database = new Database(new HikariDataSource(config(jdbcUrl, user, password, poolSize, "seqsync-pg")));
    try {
      Migrations.apply(database.jdbi);
    } catch (RuntimeException e) {
      database.close();
      throw e;
    }
    return database;
  }

  /**
   * Opens a pool of at most {@code poolSize} connections whose every statement PostgreSQL cancels
   * after {@code statementTimeout} (SQLSTATE 57014, counted in {@link #statementTimeouts}). The
   * timeout is a startup parameter of each connection, so it costs no round trip; a transaction
   * may still set its own with {@code SET LOCAL} (the archive's read budget does). Migrates nothing.
   */
  public static Database openRequests(String jdbcUrl, String user, String password, int poolSize,
      Duration statementTimeout) {
    return openRequests(jdbcUrl, user, password, poolSize, statementTimeout, new StatementTimeouts());
  }

  /** As {@link #openRequests(String, String, String, int, Duration)}, counting in {@code timeouts} (shared by shards). */
  public static Database openRequests(String jdbcUrl, String user, String password, int poolSize,
      Duration statementTimeout, StatementTimeouts timeouts) {
    if (statementTimeout.toMillis() <= 0) {
      throw new IllegalArgumentException("statementTimeout must be positive");
    }
    HikariConfig config = config(jdbcUrl, user, password, poolSize, "seqsync-pg-requests");
    config.addDataSourceProperty("options", "-c statement_timeout=" + statementTimeout.toMillis());
    return new Database(new HikariDataSource(config), timeouts);
  }

  private static HikariConfig config(String jdbcUrl, String user, String password, int poolSize, String name) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(jdbcUrl);
    config.setUsername(user);
    config.setPassword(password);
    config.setMaximumPoolSize(poolSize);
    config.setPoolName(name);
    // A request fails fast (503) when PostgreSQL is down rather than after Hikari's default 30 s.
    config.setConnectionTimeout(3_000);
    return config;
  }

  public Jdbi jdbi() {
    return jdbi;
  }

  /** Statements of this pool PostgreSQL cancelled at their timeout. */
  public StatementTimeouts statementTimeouts() {
    return timeouts;
  }

  @Override
  public void close() {
    dataSource.close();
  }
}
