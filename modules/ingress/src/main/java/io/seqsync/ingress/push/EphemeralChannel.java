package io.seqsync.ingress.push;

import io.seqsync.config.RedisEndpoint;
import io.seqsync.redis.RedisSubscription;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * The Redis channel of what is never in the event log (typing, presence changes): every instance
 * publishes on it and hears all of it, and hands each line to whoever holds the sockets concerned.
 * Best effort, as push is: a line published while Redis is down is lost, and a later one (the next
 * typing frame, the next presence change or a presence request) replaces it. Publications leave
 * from a thread of their own, so a socket's thread never waits for Redis. Thread-safe.
 */
final class EphemeralChannel implements AutoCloseable {
  static final String CHANNEL = "seqsync:ephemeral";
  private static final Logger log = LoggerFactory.getLogger(EphemeralChannel.class);

  private final UnifiedJedis redis;
  private final RedisSubscription subscription;
  private final ExecutorService publisher = Executors.newSingleThreadExecutor(runnable -> {
    Thread thread = new Thread(runnable, "ephemeral-publisher");
    thread.setDaemon(true);
    return thread;
  });

  EphemeralChannel(UnifiedJedis redis, RedisEndpoint endpoint, Consumer<String> lines) {
    this.redis = redis;
    this.subscription = new RedisSubscription(endpoint, new JedisPubSub() {
      @Override
      public void onMessage(String channel, String message) {
        try {
          lines.accept(message);
        } catch (RuntimeException e) {
          log.warn("ignoring an undeliverable ephemeral line: {}", e.toString());
        }
      }
    }, false, CHANNEL);
  }

  void publish(String line) {
    try {
      publisher.execute(() -> {
        try {
          redis.publish(CHANNEL, line);
        } catch (JedisException e) {
          log.debug("ephemeral line lost: {}", e.getMessage());
        }
      });
    } catch (RejectedExecutionException closing) {
      // shutting down: nothing to tell
    }
  }

  boolean isSubscribed() {
    return subscription.isSubscribed();
  }

  @Override
  public void close() {
    subscription.close();
    publisher.shutdownNow();
  }
}
