package io.seqsync.localstack;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A real PostgreSQL server (zonky's packaged binaries) run as a child process. Its cluster lives in
 * {@code dir/data} and is kept across restarts; the binaries are unpacked once into {@code dir/work}.
 * Authentication is {@code trust} for the superuser {@code postgres}, on loopback only.
 */
public final class LocalPostgres implements AutoCloseable {
  private static final String USER = "postgres";

  private final EmbeddedPostgres postgres;
  private final String jdbcUrl;

  private LocalPostgres(EmbeddedPostgres postgres) {
    this.postgres = postgres;
    this.jdbcUrl = "jdbc:postgresql://127.0.0.1:" + postgres.getPort() + "/postgres";
  }

  /**
   * Starts PostgreSQL on {@code port} (0: a free port), creating its cluster on first use. A busy
   * port fails at once: zonky would otherwise wait for, and then talk to, whatever listens there.
   */
  public static LocalPostgres start(Path dir, int port) {
    Path root = dir.toAbsolutePath();
    try {
      // initdb runs only when dir/data holds no cluster yet; the shutdown hook stops the server
      // if the JVM exits without close(), so no postmaster is left running.
      return new LocalPostgres(EmbeddedPostgres.builder()
          .setOverrideWorkingDirectory(root.resolve("work").toFile())
          .setDataDirectory(root.resolve("data"))
          .setCleanDataDirectory(false)
          // zonky turns this off for speed; a commit the projector reported must survive a crash.
          .setServerConfig("synchronous_commit", "on")
          // A fresh cluster has no WAL segments to recycle until its checkpoints, so the backend
          // that crosses into a new 16 MB segment first fills it with zeros, inside its COMMIT:
          // 40-60 ms stalls every few seconds at 5,000 sends/s (docs/benchmarks-history.md). Off, the
          // segment is created at its size without those writes (PostgreSQL's advice for
          // copy-on-write file systems); its space is then taken as the WAL is written.
          .setServerConfig("wal_init_zero", "off")
          .setPort(port == 0 ? FreePorts.pick() : FreePorts.requireFree(port))
          .start());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start PostgreSQL in " + root, e);
    }
  }

  /**
   * Stops a postmaster that an earlier process left running on {@code dir}'s cluster (see
   * {@link LeftoverProcess}; only the data directory's lock holder may call this). PostgreSQL names
   * it in the cluster's postmaster.pid; its command line names the cluster ({@code -D}).
   */
  static void stopLeftover(Path dir) {
    Path data = dir.toAbsolutePath().resolve("data");
    LeftoverProcess.stop("PostgreSQL", data.resolve("postmaster.pid"), "-D " + data + " ");
  }

  /** The {@code postgres} database. */
  public String jdbcUrl() {
    return jdbcUrl;
  }

  /**
   * Creates database {@code name} (letters, digits, underscores) and returns its JDBC URL: tests
   * share one server and each gets a database of its own.
   */
  public String createDatabase(String name) {
    if (!name.matches("[a-z0-9_]{1,63}")) {
      throw new IllegalArgumentException("database names here are [a-z0-9_]{1,63}: " + name);
    }
    try (Connection connection = DriverManager.getConnection(jdbcUrl, USER, "");
        Statement statement = connection.createStatement()) {
      statement.execute("create database " + name);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create database " + name + ": " + e.getMessage(), e);
    }
    return jdbcUrl.substring(0, jdbcUrl.lastIndexOf('/') + 1) + name;
  }

  public String user() {
    return USER;
  }

  /** Empty: the server trusts local connections. */
  public String password() {
    return "";
  }

  @Override
  public void close() {
    try {
      postgres.close();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot stop PostgreSQL", e);
    }
  }
}
