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
      public void close() {
        cluster.close();
      }
    };
  }
}
