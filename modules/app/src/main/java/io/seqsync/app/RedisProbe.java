package io.seqsync.app;

import io.seqsync.ingress.DependencyState;
import io.seqsync.ingress.HealthProbe;
import java.net.URI;
import java.util.Map;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.util.JedisURIHelper;

/**
 * Redis's health: a PING on a connection of its own (not the pools', so a full pool does not read as
 * Redis down), within 500 ms, reconnecting after a failure. Not required: without Redis the
 * instance still takes traffic, at a cost the answer names.
 */
final class RedisProbe implements HealthProbe, AutoCloseable {
  static final int TIMEOUT_MS = 500;
  static final String WITHOUT_REDIS =
      "the conversation list and unread counts are read from PostgreSQL (slower); nothing is pushed to connected devices";

  private final URI uri;
  private Jedis connection;

  RedisProbe(URI uri) {
    this.uri = uri;
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
  public synchronized DependencyState check() {
    long began = System.nanoTime();
    try {
      if (connection == null) {
        connection = new Jedis(JedisURIHelper.getHostAndPort(uri), DefaultJedisClientConfig.builder(uri)
            .connectionTimeoutMillis(TIMEOUT_MS).socketTimeoutMillis(TIMEOUT_MS).clientName("seqsync-health").build());
      }
      connection.ping();
      return DependencyState.up(Map.of("pingMs", (System.nanoTime() - began) / 1_000_000));
    } catch (RuntimeException e) {
      close();
      return DependencyState.down(String.valueOf(e.getMessage()), Map.of("impact", WITHOUT_REDIS));
    }
  }

  @Override
  public synchronized void close() {
    if (connection != null) {
      try {
        connection.close();
      } catch (RuntimeException ignored) {
        // broken already
      }
      connection = null;
    }
  }
}
