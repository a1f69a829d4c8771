package io.seqsync.app;

import io.seqsync.ingress.health.DependencyState;
import io.seqsync.ingress.health.HealthProbe;
import io.seqsync.redis.RedisHealth;
import java.util.Map;

/**
 * Redis's health as {@link RedisHealth} sees it (a probe every second on a connection of its own,
 * within 500 ms, and the failures Redis's users report): the state the list, push and the indexer
 * act on. Not required: without Redis the instance still takes traffic, at a cost the answer names.
 */
final class RedisProbe implements HealthProbe {
  static final String WITHOUT_REDIS =
      "the conversation list and unread counts are read from PostgreSQL (slower); nothing is pushed to connected devices";

  private final RedisHealth redis;

  RedisProbe(RedisHealth redis) {
    this.redis = redis;
  }

  @Override
  public String name() {
    return "redis";
  }

  @Override
  public boolean required() {
    return false;
  }

  @Override
  public DependencyState check() {
    if (!redis.available()) {
      return DependencyState.down(redis.lastFailure(), Map.of("impact", WITHOUT_REDIS));
    }
    if (!redis.indexCurrent()) {
      return DependencyState.degraded("the index is catching up with PostgreSQL: the conversation list and unread"
          + " counts are read from PostgreSQL meanwhile", Map.of());
    }
    return DependencyState.up(Map.of());
  }
}
