package io.seqsync.localstack;

import java.nio.file.Path;

/**
 * The two shapes of Redis seqsync runs on, for tests that run their Redis-dependent checks on both:
 * one redis-server ({@link LocalRedis}) or a Redis Cluster of three masters
 * ({@link LocalRedisCluster}).
 */
public enum RedisTopology {
  SINGLE, CLUSTER;

  /** A running Redis: its {@code redis.uri}, stopped by {@link #close()}. */
  public interface Running extends AutoCloseable {
    String uri();

    /**
     * A master of the cluster that does not serve {@code key} crashes and comes back empty
     * ({@link LocalRedisCluster#restartMaster}); returns its index.
     */
    default int restartMasterNotHolding(String key) {
      throw new UnsupportedOperationException("one redis-server has no master to restart");
    }

    /** Whether the master that {@link #restartMasterNotHolding} restarted serves {@code key}. */
    default boolean servedBy(int master, String key) {
      throw new UnsupportedOperationException("one redis-server has no masters");
    }

    @Override
    void close();
  }

  /** Starts this topology's servers under {@code dir} on free ports. */
  public Running start(Path dir) {
    if (this == SINGLE) {
      LocalRedis redis = LocalRedis.start(dir.resolve("redis"), 0);
      return new Running() {
        @Override
        public String uri() {
          return redis.uri();
        }

        @Override
        public void close() {
          redis.close();
        }
      };
    }
    LocalRedisCluster cluster = LocalRedisCluster.start(dir.resolve("redis-cluster"), 3);
    return new Running() {
      @Override
      public String uri() {
        return cluster.uri();
      }

      @Override
      public int restartMasterNotHolding(String key) {
        int master = (cluster.masterOf(key) + 1) % cluster.ports().size();
        cluster.restartMaster(master);
        return master;
      }

      @Override
      public boolean servedBy(int master, String key) {
        return cluster.masterOf(key) == master;
      }

      @Override
      public void close() {
        cluster.close();
      }
    };
  }
}
