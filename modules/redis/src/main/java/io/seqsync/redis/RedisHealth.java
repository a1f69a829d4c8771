package io.seqsync.redis;

import io.seqsync.config.RedisEndpoint;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Whether Redis can be used, and whether its index can be trusted. Redis is a cache and an index
 * here: while it is unavailable its users go to PostgreSQL or skip it (push) at once, instead of
 * each waiting out a socket timeout. Two sources: a probe every {@link #PROBE_INTERVAL} on a
 * connection of its own (which also reads the server's {@code run_id}, so a Redis that restarted,
 * or was replaced, is told apart from one that only did not answer for a while), and the failures
 * the users report ({@link #failed}), which mark it unavailable until the next successful probe.
 * The index is current when Redis is available and no indexer of this process is behind
 * ({@link #indexBehind}). On a Redis Cluster the probe asks a node (the first configured one
 * that answers) for the cluster's state, which must be ok, and its masters, and asks each master
 * for its {@code run_id}: the cluster is available when every master answers, and "restarted"
 * when any master is a new process or another node (a replica promoted). Thread-safe.
 */
public final class RedisHealth implements AutoCloseable {
  /** How often Redis is probed; also how long a restarted Redis may go unnoticed. */
  public static final Duration PROBE_INTERVAL = Duration.ofSeconds(1);
  private static final int PROBE_TIMEOUT_MS = 500;
  private static final Logger log = LoggerFactory.getLogger(RedisHealth.class);

  /** Told, on the probe's thread, when Redis answers again after it did not, or answers as another process. */
  @FunctionalInterface
  public interface Listener {
    /**
     * {@code restarted}: the server is a new process (or a new server; on a cluster: one of its
     * masters): whatever it held may be older than what was written.
     */
    void redisBack(boolean restarted);
  }

  private final RedisEndpoint endpoint;
  private final String address;
  private final List<Listener> listeners = new CopyOnWriteArrayList<>();
  private final CountDownLatch closed = new CountDownLatch(1);
  private final Thread prober;
  private volatile boolean available;
  private volatile boolean indexBehind;
  private volatile String runId;
  private volatile String lastFailure = "";

  /** Probes the Redis at {@code redisUri} (see {@link RedisEndpoint#parse}). */
  public RedisHealth(String redisUri) {
    this(RedisEndpoint.parse(redisUri));
  }

  /** Probes the Redis (one server or a cluster) at {@code endpoint}, once before returning, then every interval. */
  public RedisHealth(RedisEndpoint endpoint) {
    this.endpoint = endpoint;
    this.address = endpoint.cluster() ? "the cluster of " + endpoint.nodes() : endpoint.first().toString();
    probe();
    prober = new Thread(this::probeUntilClosed, "redis-health");
    prober.setDaemon(true);
    prober.start();
  }

  /** Whether Redis is a cluster. */
  public boolean cluster() {
    return endpoint.cluster();
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
    try {
      answeredRunId = endpoint.cluster() ? clusterIdentity() : runIdAt(endpoint.first().host(), endpoint.first().port());
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
      log.info("Redis at {} answers again{}", address, !restarted ? ""
          : endpoint.cluster() ? " with a master restarted or replaced (" + answeredRunId + ")"
          : " as a new process (run id " + answeredRunId + ")");
      listeners.forEach(listener -> listener.redisBack(restarted));
    }
  }

  private Jedis connect(String host, int port) {
    return new Jedis(new HostAndPort(host, port), RedisClients.clientConfig(endpoint)
        .connectionTimeoutMillis(PROBE_TIMEOUT_MS).socketTimeoutMillis(PROBE_TIMEOUT_MS).build());
  }

  private String runIdAt(String host, int port) {
    try (Jedis connection = connect(host, port)) {
      return runIdOf(connection.info("server"));
    }
  }

  // "nodeId=runId" of every master serving slots, by node id: changes when a master restarts or a
  // replica takes over. Asks the configured nodes in turn until one answers.
  private String clusterIdentity() {
    RuntimeException failure = null;
    for (RedisEndpoint.Node seed : endpoint.nodes()) {
      List<String[]> masters;
      try (Jedis connection = connect(seed.host(), seed.port())) {
        String state = field(connection.clusterInfo(), "cluster_state:");
        if (!state.equals("ok")) {
          throw new JedisException("cluster_state is " + state + " at " + seed);
        }
        masters = masters(connection.clusterNodes());
      } catch (RuntimeException e) {
        failure = e;
        continue;
      }
      List<String> identity = new ArrayList<>();
      for (String[] master : masters) {
        String hostPort = master[1].split("@")[0];
        int colon = hostPort.lastIndexOf(':');
        identity.add(master[0] + "=" + runIdAt(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1))));
      }
      return String.join(",", identity);
    }
    throw failure;
  }

  // CLUSTER NODES lines of masters that serve slots and are not marked failed by the cluster: id,
  // address, flags, ... One only suspected ("fail?") is kept: if it does not answer, neither does Redis.
  static List<String[]> masters(String clusterNodes) {
    List<String[]> masters = new ArrayList<>();
    for (String line : clusterNodes.split("\r?\n")) {
      String[] f = line.trim().split(" ");
      List<String> flags = f.length > 2 ? List.of(f[2].split(",")) : List.of();
      if (f.length > 8 && flags.contains("master") && !flags.contains("fail")) {
        masters.add(f);
      }
    }
    masters.sort((a, b) -> a[0].compareTo(b[0]));
    return masters;
  }

  static String runIdOf(String info) {
    return field(info, "run_id:");
  }

  private static String field(String info, String name) {
    for (String line : info.split("\r?\n")) {
      if (line.startsWith(name)) {
        return line.substring(name.length()).trim();
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
