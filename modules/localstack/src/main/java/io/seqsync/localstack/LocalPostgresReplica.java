package io.seqsync.localstack;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Set;

/**
 * A streaming replica (hot standby) of a PostgreSQL primary on this machine, run with zonky's
 * packaged binaries as {@link LocalPostgres} runs the primary. On first use it takes a base backup
 * of the primary into {@code dir/data} with PostgreSQL's backup functions ({@code pg_backup_start},
 * a copy of the primary's cluster directory, {@code pg_backup_stop}'s backup label: what
 * {@code pg_basebackup} does, whose binary zonky's bundle lacks), holding the primary's WAL for it
 * in a physical replication slot; then it starts as a standby ({@code standby.signal},
 * {@code primary_conninfo}, {@code primary_slot_name}) streaming from the primary. A restart keeps
 * its cluster and resumes streaming where it stopped.
 */
public final class LocalPostgresReplica implements AutoCloseable {
  private static final String USER = "postgres";
  // What pg_basebackup leaves out of a base backup: the server's runtime files and WAL (streamed instead).
  private static final Set<String> EMPTIED = Set.of("pg_wal", "pg_replslot", "pg_stat_tmp", "pg_dynshmem", "pg_notify",
      "pg_serial", "pg_snapshots", "pg_subtrans");
  private static final Set<String> SKIPPED = Set.of("postmaster.pid", "postmaster.opts", "backup_label",
      "tablespace_map", "standby.signal", "recovery.signal", "epg-lock");

  private final EmbeddedPostgres postgres;
  private final String jdbcUrl;
  private boolean closed;

  private LocalPostgresReplica(EmbeddedPostgres postgres, int port) {
    this.postgres = postgres;
    this.jdbcUrl = "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
  }

  /**
   * Starts a replica of the primary at {@code primaryJdbcUrl} (user postgres, trusted on loopback)
   * in {@code dir} on {@code port} (0: a free one), taking its base backup first when {@code dir}
   * holds no cluster yet; {@code slot} names its replication slot on the primary.
   */
  public static LocalPostgresReplica start(String primaryJdbcUrl, Path dir, int port, String slot) {
    Path root = dir.toAbsolutePath();
    Path data = root.resolve("data");
    int chosen = port == 0 ? FreePorts.pick() : FreePorts.requireFree(port);
    try {
      if (!Files.exists(data.resolve("PG_VERSION"))) {
        baseBackup(primaryJdbcUrl, data, slot);
      }
      EmbeddedPostgres postgres = EmbeddedPostgres.builder()
          .setOverrideWorkingDirectory(root.resolve("work").toFile())
          .setDataDirectory(data)
          .setCleanDataDirectory(false)
          .setPort(chosen)
          .setPGStartupWait(Duration.ofMinutes(2))
          // Its server log, for what a standby tells only there (streaming, replay, a refused connection).
          .setOutputRedirector(ProcessBuilder.Redirect.appendTo(root.resolve("postgres.log").toFile()))
          .setErrorRedirector(ProcessBuilder.Redirect.appendTo(root.resolve("postgres.log").toFile()))
          .start();
      return new LocalPostgresReplica(postgres, chosen);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start a PostgreSQL replica in " + root, e);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot take a base backup of " + primaryJdbcUrl + ": " + e.getMessage(), e);
    }
  }

  private static void baseBackup(String primaryJdbcUrl, Path data, String slot) throws SQLException, IOException {
    try (Connection primary = DriverManager.getConnection(primaryJdbcUrl, USER, "")) {
      try (PreparedStatement create = primary.prepareStatement("select pg_create_physical_replication_slot(?, true)"
          + " where not exists (select 1 from pg_replication_slots where slot_name = ?)")) {
        create.setString(1, slot);
        create.setString(2, slot);
        create.execute();
      }
      Path source = Path.of(single(primary, "show data_directory"));
      String primaryPort = single(primary, "select inet_server_port()::text");
      single(primary, "select pg_backup_start('seqsync-replica', true)::text");
      Path partial = data.resolveSibling("data.partial");
      copyCluster(source, partial);
      String label = single(primary, "select labelfile from pg_backup_stop(false)");
      Files.writeString(partial.resolve("backup_label"), label);
      Files.writeString(partial.resolve("standby.signal"), "");
      Files.writeString(partial.resolve("postgresql.auto.conf"), "primary_conninfo = 'host=127.0.0.1 port=" + primaryPort
          + " user=" + USER + " application_name=" + slot + "'\nprimary_slot_name = '" + slot + "'\n",
          StandardOpenOption.CREATE, StandardOpenOption.APPEND);
      Files.setPosixFilePermissions(partial, PosixFilePermissions.fromString("rwx------"));
      Files.move(partial, data, StandardCopyOption.ATOMIC_MOVE);
    }
  }

  private static String single(Connection connection, String sql) throws SQLException {
    try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
      rs.next();
      return rs.getString(1);
    }
  }

  // The primary's files as they are while it runs: the WAL from the backup's start repairs torn pages.
  private static void copyCluster(Path source, Path target) throws IOException {
    Files.walkFileTree(source, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
        Files.createDirectories(target.resolve(source.relativize(dir)));
        return EMPTIED.contains(dir.getFileName().toString()) && !dir.equals(source)
            ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        if (!(file.getParent().equals(source) && SKIPPED.contains(file.getFileName().toString()))) {
          try {
            Files.copy(file, target.resolve(source.relativize(file)), StandardCopyOption.REPLACE_EXISTING);
          } catch (NoSuchFileException gone) {
            // Dropped by the primary meanwhile (a temporary file): the WAL replay accounts for it.
          }
        }
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
        if (e instanceof NoSuchFileException) {
          return FileVisitResult.CONTINUE;
        }
        throw e;
      }
    });
    Files.createDirectories(target.resolve("pg_wal").resolve("archive_status"));
  }

  /** The replica's {@code postgres} database (read-only). */
  public String jdbcUrl() {
    return jdbcUrl;
  }

  /** Stops the replica (a fast shutdown); again, nothing. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      postgres.close();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot stop the PostgreSQL replica", e);
    }
  }
}
