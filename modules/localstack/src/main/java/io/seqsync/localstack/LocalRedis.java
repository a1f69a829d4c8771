package io.seqsync.localstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import redis.embedded.RedisServer;

/**
 * A real redis-server (the binary packaged by embedded-redis) run as a child process on 127.0.0.1.
 * It keeps an append-only file in {@code dir}, so its keys survive a restart.
 */
public final class LocalRedis implements AutoCloseable {
  // Written by redis-server at start, removed at a clean stop: names a server left running.
  private static final String PID_FILE = "redis.pid";
  private final RedisServer server;
  private final int port;

  private LocalRedis(RedisServer server, int port) {
    this.server = server;
    this.port = port;
  }

  /** Starts redis-server on {@code port} (0: a free port) and returns once it accepts connections. */
  public static LocalRedis start(Path dir, int port) {
    Path dataDir = dir.toAbsolutePath();
    int actualPort = FreePorts.orPick(port);
    try {
      Files.createDirectories(dataDir);
      // Stopped with SIGTERM, not SIGKILL, so redis flushes its append-only file before exiting.
      RedisServer server = RedisServer.newRedisServer()
          .bind("127.0.0.1")
          .port(actualPort)
          .setting("dir " + quoted(dataDir.toString()))
          .setting("appendonly yes")
          .setting("pidfile " + quoted(dataDir.resolve(PID_FILE).toString()))
          .onShutdownForceStop(false)
          .build();
      server.start();
      return new LocalRedis(server, actualPort);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start redis-server in " + dataDir, e);
    }
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

  @Override
  public void close() {
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
