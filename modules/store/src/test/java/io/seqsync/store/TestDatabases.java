package io.seqsync.store;

import io.seqsync.localstack.LocalPostgres;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/** One PostgreSQL server for a test class, and a fresh migrated database whenever a test asks. */
final class TestDatabases implements AutoCloseable {
  private static final AtomicInteger DATABASES = new AtomicInteger();

  private final LocalPostgres postgres;

  private TestDatabases(LocalPostgres postgres) {
    this.postgres = postgres;
  }

  static TestDatabases start(Path dir) {
    return new TestDatabases(LocalPostgres.start(dir, 0));
  }

  /** A new database named after {@code prefix}, migrated, with a pool of two connections. */
  Database fresh(String prefix) {
    String url = postgres.createDatabase(prefix + "_" + DATABASES.incrementAndGet());
    return Database.open(url, postgres.user(), postgres.password(), 2);
  }

  @Override
  public void close() {
    postgres.close();
  }
}
