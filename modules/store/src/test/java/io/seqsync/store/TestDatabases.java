package io.seqsync.store;

import io.seqsync.localstack.LocalPostgres;
import io.seqsync.localstack.TemporaryDirectory;
import java.util.concurrent.atomic.AtomicInteger;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One PostgreSQL server for a test class (register this in a static field with
 * {@code @RegisterExtension}), in a temporary directory of its own, and a fresh migrated database
 * for every test: no test sees another's rows. Extension callbacks run before the class's
 * {@code @BeforeEach} methods, so those find {@link #database()} open. Shared with the projector's
 * tests of what it writes (the store's test-jar).
 */
public final class TestDatabases implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {
  private static final AtomicInteger DATABASES = new AtomicInteger();

  private final String prefix;
  private TemporaryDirectory dir;
  private LocalPostgres postgres;
  private Database database;

  /** Databases named after {@code prefix} (letters, digits, underscores). */
  public TestDatabases(String prefix) {
    this.prefix = prefix;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    dir = TemporaryDirectory.create("test-databases-");
    postgres = LocalPostgres.start(dir.path(), 0);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    // try-with-resources stops PostgreSQL before deleting the directory it wrote in, and skips
    // what never started.
    try (TemporaryDirectory closingDir = dir; LocalPostgres closingPostgres = postgres) {
      dir = null;
      postgres = null;
    }
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    String url = postgres.createDatabase(prefix + "_" + DATABASES.incrementAndGet());
    database = Database.open(url, postgres.user(), postgres.password(), 2);
  }

  @Override
  public void afterEach(ExtensionContext context) {
    if (database != null) {
      database.close();
      database = null;
    }
  }

  /** This test's database, migrated, with a pool of two connections. */
  public Database database() {
    return database;
  }

  /** Messages 1..count of {@code conv}, alternately from users 1 and 2, and the watermark at count. */
  public static void insertMessages(Jdbi jdbi, String conv, int count) {
    jdbi.useTransaction(handle -> {
      handle.execute("insert into conversations (conv_id, kind, latest_seq, last_activity) values (?, ?, ?, ?)",
          conv, conv.startsWith("g:") ? "group" : "direct", count, 5000 + count);
      for (int seq = 1; seq <= count; seq++) {
        handle.execute("insert into messages (conv_id, seq, msg_id, sender_id, sender_device, client_msg_id, type,"
                + " content, create_time) values (?, ?, ?, ?, 'phone', ?, 'text', ?, ?)",
            conv, seq, (conv.startsWith("g:") ? 2000 : 1000) + seq, seq % 2 == 1 ? 1 : 2, "c-" + seq,
            "hello " + seq, 5000 + seq);
      }
    });
  }
}
