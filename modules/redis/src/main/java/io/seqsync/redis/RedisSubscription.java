package io.seqsync.redis;

import io.seqsync.config.RedisEndpoint;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisPubSub;

/**
 * A running Redis pub/sub subscription: a daemon thread holding one connection, reconnecting
 * after a failure, until {@link #close()}. Messages published while it is not subscribed are
 * missed (pub/sub is best effort; every user of it has a pull fallback). On a Redis Cluster it
 * subscribes on one node at a time, the next one after a failure: PUBLISH is broadcast to every
 * node of a cluster, so any node hears every publication.
 */
public final class RedisSubscription implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RedisSubscription.class);

  private final JedisPubSub pubSub;
  private final Thread thread;
  private volatile boolean closed;

  /** Subscribes {@code pubSub} to {@code channels}, or to channel patterns when {@code patterns}. */
  public RedisSubscription(RedisEndpoint endpoint, JedisPubSub pubSub, boolean patterns, String... channels) {
    this.pubSub = pubSub;
    List<RedisEndpoint.Node> nodes = endpoint.nodes();
    JedisClientConfig config = RedisClients.clientConfig(endpoint).build();
    this.thread = new Thread(() -> {
      for (int attempt = 0; !closed; attempt++) {
        RedisEndpoint.Node node = nodes.get(attempt % nodes.size());
        try (Jedis connection = new Jedis(new HostAndPort(node.host(), node.port()), config)) {
          if (patterns) {
            connection.psubscribe(pubSub, channels);
          } else {
            connection.subscribe(pubSub, channels);
          }
        } catch (RuntimeException e) {
          if (!closed) {
            log.warn("subscription to {} at {} lost, reconnecting: {}", String.join(",", channels), node, e.getMessage());
            sleepQuietly(500);
          }
        }
      }
    }, "redis-subscriber-" + String.join(",", channels));
    thread.setDaemon(true);
    thread.start();
  }

  /** True once the subscription is registered with Redis (messages before that are missed). */
  public boolean isSubscribed() {
    return pubSub.isSubscribed();
  }

  @Override
  public void close() {
    closed = true;
    if (pubSub.isSubscribed()) {
      try {
        pubSub.punsubscribe();
      } catch (RuntimeException ignored) {
        // not pattern-subscribed
      }
      try {
        pubSub.unsubscribe();
      } catch (RuntimeException ignored) {
        // already gone
      }
    }
    thread.interrupt();
  }

  private static void sleepQuietly(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
