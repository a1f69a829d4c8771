package io.seqsync.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.jdbi.v3.core.Jdbi;

/**
 * The PostgreSQL connection pool and its Jdbi. Thread-safe; one per process. Applies the schema
 * migrations when opened, so every component sees the current schema.
 */
public final class Database implements AutoCloseable {
  private final HikariDataSource dataSource;
  private final Jdbi jdbi;

  private Database(HikariDataSource dataSource) {
    this.dataSource = dataSource;
    this.jdbi = Jdbi.create(dataSource);
  }

  /** Opens a pool of at most {@code poolSize} connections and migrates the schema. */
  public static Database open(String jdbcUrl, String user, String password, int poolSize) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(jdbcUrl);
    config.setUsername(user);
    config.setPassword(password);
    config.setMaximumPoolSize(poolSize);
    config.setPoolName("seqsync-pg");
    // A request fails fast (503) when PostgreSQL is down rather than after Hikari's default 30 s.
    config.setConnectionTimeout(3_000);
    Database database = new Database(new HikariDataSource(config));
    try {
      Migrations.apply(database.jdbi);
    } catch (RuntimeException e) {
      database.close();
      throw e;
    }
    return database;
  }

  public Jdbi jdbi() {
    return jdbi;
  }

  @Override
  public void close() {
    dataSource.close();
  }
}
