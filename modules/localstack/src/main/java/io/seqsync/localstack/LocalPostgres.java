package io.seqsync.localstack;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real PostgreSQL server (zonky's packaged binaries) run as a child process. Its cluster lives in
 * {@code dir/data} and is kept across restarts; the binaries are unpacked once into {@code dir/work}.
 * Authentication is {@code trust} for the superuser {@code postgres}, on loopback only.
 */
public final class LocalPostgres implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(LocalPostgres.class);
  private static final String USER = "postgres";
  // How long a restart waits for the backends of a killed postmaster to exit (they notice its death
  // at once, unless stalled): a new postmaster refuses the cluster while they hold its shared memory.
  private static final Duration ORPHANS_EXIT = Duration.ofSeconds(30);
  private static final Duration STARTUP_WAIT = Duration.ofMinutes(2);

  private final Path root;
  private final int port;
  private final String jdbcUrl;
  private EmbeddedPostgres postgres;
  private volatile Optional<ProcessHandle> postmaster = Optional.empty();

  private final boolean fsync;

  private LocalPostgres(Path root, int port, boolean fsync) {
    this.root = root;
    this.port = port;
    this.fsync = fsync;
    this.jdbcUrl = "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
  }

  /**
   * Starts PostgreSQL on {@code port} (0: a free port), creating its cluster on first use. A busy
   * port fails at once: zonky would otherwise wait for, and then talk to, whatever listens there.
   */
  public static LocalPostgres start(Path dir, int port) {
    return start(dir, port, false);
  }

  /**
   * As {@link #start(Path, int)}; {@code fsync}: whether the server flushes its WAL to disk (zonky
   * starts it with {@code -F}, fsync off: a crash of the machine, not of the process, may lose
   * commits). On for measurements of what a production server writes.
   */
  public static LocalPostgres start(Path dir, int port, boolean fsync) {
    LocalPostgres postgres = new LocalPostgres(dir.toAbsolutePath(), port == 0 ? FreePorts.pick() : FreePorts.requireFree(port),
        fsync);
    postgres.launch();
    return postgres;
  }

  /** This server as {@link ServerSupervisor} watches it. */
  ServerSupervisor.Server supervised() {
    return new ServerSupervisor.Server("PostgreSQL", this::whereabouts, this::isRunning, this::restart);
  }

  /** Whether its postmaster still runs (a stopped one does). */
  boolean isRunning() {
    return postmaster.map(ServerProcesses::isRunning).orElse(false);
  }

  // Its postmaster's process id, port and cluster directory, for the log.
  private String whereabouts() {
    return "postmaster pid " + postmaster.map(handle -> Long.toString(handle.pid())).orElse("unknown") + ", port "
        + port + ", data in " + root.resolve("data");
  }

  /**
   * Starts PostgreSQL again on the same port and cluster after its postmaster died, once the dead
   * one's backends have exited. The cluster recovers from its WAL: every committed transaction is there.
   */
  synchronized void restart() {
    // zonky's close releases its lock on the cluster; its pg_ctl stop fails, as nothing runs, and logs an error.
    log.info("PostgreSQL: releasing the dead server's lock on {} (zonky's pg_ctl stop fails: nothing is left to stop)",
        root.resolve("data"));
    stopServer();
    awaitOrphansExit();
    FreePorts.requireFree(port);
    launch();
  }

  private synchronized void launch() {
    try {
      // initdb runs only when dir/data holds no cluster yet; the shutdown hook stops the server
      // if the JVM exits without close(), so no postmaster is left running.
      postgres = EmbeddedPostgres.builder()
          .setOverrideWorkingDirectory(root.resolve("work").toFile())
          .setDataDirectory(root.resolve("data"))
          .setCleanDataDirectory(false)
          // zonky turns this off for speed; a commit the projector reported must survive a crash.
          .setServerConfig("synchronous_commit", "on")
          // A fresh cluster has no WAL segments to recycle until its checkpoints, so the backend
          // that crosses into a new 16 MB segment first fills it with zeros, inside its COMMIT:
          // 40-60 ms stalls every few seconds at 5,000 sends/s (docs/design.md, "The projection (PostgreSQL, D4, R1, R7, R25)"). Off, the
          // segment is created at its size without those writes (PostgreSQL's advice for
          // copy-on-write file systems); its space is then taken as the WAL is written.
          .setServerConfig("wal_init_zero", "off")
          // After zonky's -F on the command line: this one wins.
          .setServerConfig("fsync", fsync ? "on" : "off")
          .setPort(port)
          // After a crash the server replays its WAL before it answers: zonky's 10 s can be too short.
          .setPGStartupWait(STARTUP_WAIT)
          .start();
      postmaster = ServerProcesses.fromPidFile(root.resolve("data").resolve("postmaster.pid"));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start PostgreSQL in " + root, e);
    }
  }

  private void awaitOrphansExit() {
    long deadline = System.nanoTime() + ORPHANS_EXIT.toNanos();
    List<ProcessHandle> left;
    while (!(left = ServerProcesses.runningBinariesUnder(root.resolve("work"))).isEmpty()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(left.size() + " processes of the dead postmaster still run after "
            + ORPHANS_EXIT.toSeconds() + " s (pids " + left.stream().map(ProcessHandle::pid).toList() + ")");
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for the dead postmaster's backends", e);
      }
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
  public synchronized void close() {
    stopServer();
  }

  private void stopServer() {
    try {
      postgres.close();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot stop PostgreSQL", e);
    }
  }
}
