package io.seqsync.localstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import redis.embedded.RedisServer;

/**
 * A real redis-server (the binary packaged by embedded-redis) run as a child process on 127.0.0.1.
 * It keeps an append-only file in {@code dir}, so its keys survive a restart.
 */
public final class LocalRedis implements AutoCloseable {
  // Written by redis-server at start, removed at a clean stop: names a server left running.
  private static final String PID_FILE = "redis.pid";
  private final Path dataDir;
  private final int port;
  private RedisServer server;
  private volatile Optional<ProcessHandle> process = Optional.empty();

  private LocalRedis(Path dataDir, int port) {
    this.dataDir = dataDir;
    this.port = port;
  }

  /** Starts redis-server on {@code port} (0: a free port) and returns once it accepts connections. */
  public static LocalRedis start(Path dir, int port) {
    LocalRedis redis = new LocalRedis(dir.toAbsolutePath(), FreePorts.orPick(port));
    redis.launch();
    return redis;
  }

  /**
   * Stops a redis-server that an earlier process left running on {@code dir} (see
   * {@link LeftoverProcess}; only the data directory's lock holder may call this). SIGTERM makes
   * it write its append-only file out before it exits.
   */
  static void stopLeftover(Path dir) {
    LeftoverProcess.stop("Redis", dir.toAbsolutePath().resolve(PID_FILE), "redis-server");
  }

  /** {@code redis://127.0.0.1:port}. */
  public String uri() {
    return "redis://127.0.0.1:" + port;
  }

  /** This server as {@link ServerSupervisor} watches it. */
  ServerSupervisor.Server supervised() {
    return new ServerSupervisor.Server("Redis", this::whereabouts, this::isRunning, this::restart);
  }

  /** Whether its redis-server process still runs (a stopped one does). */
  boolean isRunning() {
    return process.map(ServerProcesses::isRunning).orElse(false);
  }

  // Its process id, port and data directory, for the log.
  private String whereabouts() {
    return "pid " + process.map(handle -> Long.toString(handle.pid())).orElse("unknown") + ", port " + port
        + ", data in " + dataDir;
  }

  /** Starts redis-server again on the same port and data directory, after its process died. */
  synchronized void restart() {
    stopServer(); // releases what the library holds for the dead process
    launch();
  }

  @Override
  public synchronized void close() {
    stopServer();
  }

  private synchronized void launch() {
    try {
      Files.createDirectories(dataDir);
      // Stopped with SIGTERM, not SIGKILL, so redis flushes its append-only file before exiting.
      server = RedisServer.newRedisServer()
          .bind("127.0.0.1")
          .port(port)
          .setting("dir " + quoted(dataDir.toString()))
          .setting("appendonly yes")
          .setting("pidfile " + quoted(dataDir.resolve(PID_FILE).toString()))
          .onShutdownForceStop(false)
          .build();
      server.start();
      // redis-server writes its pid file before it accepts connections, so this names it.
      process = ServerProcesses.fromPidFile(dataDir.resolve(PID_FILE));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start redis-server in " + dataDir, e);
    }
  }

  private void stopServer() {
    try {
      server.stop();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot stop redis-server", e);
    }
  }

  // redis.conf splits on spaces unless the value is in double quotes.
  private static String quoted(String value) {
    return '"' + value.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
  }
}
