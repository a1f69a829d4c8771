package io.seqsync.localstack;

import java.nio.file.Path;

/**
 * The two shapes of Redis seqsync runs on, for tests that run their Redis-dependent checks on both:
 * one redis-server ({@link LocalRedis}) or a Redis Cluster of three masters
 * ({@link LocalRedisCluster}).
 */
public enum RedisTopology {
  SINGLE, CLUSTER;

  /**
   * A running Redis: its {@code redis.uri}, its servers (stopped by {@link #close()}) and, for a
   * cluster, the cluster (null for one redis-server).
   */
  public record Running(String uri, AutoCloseable servers, LocalRedisCluster cluster) implements AutoCloseable {
    /**
     * A master of the cluster that does not serve {@code key} crashes and comes back empty
     * ({@link LocalRedisCluster#restartMaster}); returns its index.
     */
    public int restartMasterNotHolding(String key) {
      int master = (requireCluster().masterOf(key) + 1) % cluster.ports().size();
      cluster.restartMaster(master);
      return master;
    }

    /** Whether master {@code master} of the cluster serves {@code key}. */
    public boolean servedBy(int master, String key) {
      return requireCluster().masterOf(key) == master;
    }

    private LocalRedisCluster requireCluster() {
      if (cluster == null) {
        throw new UnsupportedOperationException("one redis-server has no masters");
      }
      return cluster;
    }

    @Override
    public void close() {
      try {
        servers.close();
      } catch (Exception e) {
        throw new IllegalStateException("cannot stop Redis at " + uri, e);
      }
    }
  }

  /** Starts this topology's servers under {@code dir} on free ports. */
  public Running start(Path dir) {
    if (this == SINGLE) {
      LocalRedis redis = LocalRedis.start(dir.resolve("redis"), 0);
      return new Running(redis.uri(), redis, null);
    }
    LocalRedisCluster cluster = LocalRedisCluster.start(dir.resolve("redis-cluster"), 3);
    return new Running(cluster.uri(), cluster, cluster);
  }
}
