package io.seqsync.store;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

/**
 * Whether Redis can be used, and whether its index can be trusted. Redis is a cache and an index
 * here: while it is unavailable its users go to PostgreSQL or skip it (push) at once, instead of
 * each waiting out a socket timeout. Two sources: a probe every {@link #PROBE_INTERVAL} on a
 * connection of its own (which also reads the server's {@code run_id}, so a Redis that restarted,
 * or was replaced, is told apart from one that only did not answer for a while), and the failures
 * the users report ({@link #failed}), which mark it unavailable until the next successful probe.
 * The index is current when Redis is available and no indexer of this process is behind
 * ({@link #indexBehind}). Thread-safe.
 */
public final class RedisHealth implements AutoCloseable {
  /** How often Redis is probed; also how long a restarted Redis may go unnoticed. */
  public static final Duration PROBE_INTERVAL = Duration.ofSeconds(1);
  private static final int PROBE_TIMEOUT_MS = 500;
  private static final Logger log = LoggerFactory.getLogger(RedisHealth.class);

  /** Told, on the probe's thread, when Redis answers again after it did not, or answers as another process. */
  @FunctionalInterface
  public interface Listener {
    /** {@code restarted}: the server is a new process (or a new server): whatever it held may be older than what was written. */
    void redisBack(boolean restarted);
  }

  private final HostAndPort address;
  private final List<Listener> listeners = new CopyOnWriteArrayList<>();
  private final CountDownLatch closed = new CountDownLatch(1);
  private final Thread prober;
  private volatile boolean available;
  private volatile boolean indexBehind;
  private volatile String runId;
  private volatile String lastFailure = "";

  /** Probes the Redis at {@code redisUri} ({@code redis://host:port}), once before returning, then every interval. */
  public RedisHealth(String redisUri) {
    URI uri = URI.create(redisUri);
    this.address = new HostAndPort(uri.getHost(), uri.getPort() < 0 ? 6379 : uri.getPort());
    probe();
    prober = new Thread(this::probeUntilClosed, "redis-health");
    prober.setDaemon(true);
    prober.start();
  }

  public void addListener(Listener listener) {
    listeners.add(listener);
  }

  /** Whether Redis answered the last probe and no user saw it fail since. */
  public boolean available() {
    return available;
  }

  /** Whether readers may trust the index: Redis is available and this process's indexer is not behind. */
  public boolean indexCurrent() {
    return available && !indexBehind;
  }

  /** What the last failure was ("" when none). */
  public String lastFailure() {
    return lastFailure;
  }

  /** A user of Redis saw it fail: unavailable until the next successful probe. */
  public void failed(RuntimeException failure) {
    if (available) {
      log.warn("Redis at {} failed ({}): the list and unread counts come from PostgreSQL and push pauses until"
          + " it answers again", address, failure.getMessage());
    }
    lastFailure = String.valueOf(failure.getMessage());
    available = false;
  }

  /** The indexer is behind what PostgreSQL holds (it could not write), or caught up again. */
  public void indexBehind(boolean behind) {
    indexBehind = behind;
  }

  private void probeUntilClosed() {
    try {
      while (!closed.await(PROBE_INTERVAL.toMillis(), TimeUnit.MILLISECONDS)) {
        probe();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void probe() {
    String answeredRunId;
    try (Jedis connection = new Jedis(address, DefaultJedisClientConfig.builder()
        .connectionTimeoutMillis(PROBE_TIMEOUT_MS).socketTimeoutMillis(PROBE_TIMEOUT_MS).build())) {
      answeredRunId = runIdOf(connection.info("server"));
    } catch (RuntimeException e) {
      if (available) {
        failed(e);
      }
      lastFailure = String.valueOf(e.getMessage());
      return;
    }
    boolean wasAvailable = available;
    String previous = runId;
    runId = answeredRunId;
    available = true;
    boolean restarted = previous != null && !previous.equals(answeredRunId);
    if (restarted || (!wasAvailable && previous != null)) {
      log.info("Redis at {} answers again{}", address, restarted ? " as a new process (run id " + answeredRunId + ")" : "");
      listeners.forEach(listener -> listener.redisBack(restarted));
    }
  }

  static String runIdOf(String info) {
    for (String line : info.split("\r?\n")) {
      if (line.startsWith("run_id:")) {
        return line.substring("run_id:".length()).trim();
      }
    }
    return "";
  }

  @Override
  public void close() {
    closed.countDown();
    try {
      prober.join(2_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
