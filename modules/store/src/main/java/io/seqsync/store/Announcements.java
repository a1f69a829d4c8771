package io.seqsync.store;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.JedisPubSub;

/**
 * The announcement of what the projection has stored, on a Redis pub/sub channel, so that every
 * ingress instance can answer its waiting sends (and, later, push) only after PostgreSQL has
 * committed the rows: store, then announce (R1). One message per committed projector batch, a
 * line per outcome, tab-separated (ids never contain control characters). Pub/sub is best
 * effort: a missed announcement makes a send answer 202, never a wrong answer.
 */
public final class Announcements {
  public static final String CHANNEL = "seqsync:stored";
  private static final Logger log = LoggerFactory.getLogger(Announcements.class);

  private Announcements() {}

  /** Publishes the outcomes of one committed batch; a no-op for none. */
  public static void publish(JedisPooled redis, List<Outcome> outcomes) {
    if (!outcomes.isEmpty()) {
      redis.publish(CHANNEL, encode(outcomes));
    }
  }

  static String encode(List<Outcome> outcomes) {
    StringBuilder text = new StringBuilder();
    for (Outcome outcome : outcomes) {
      text.append(outcome.kind()).append('\t').append(outcome.commandId()).append('\t').append(outcome.convId())
          .append('\t').append(outcome.seq()).append('\t').append(outcome.msgId()).append('\t')
          .append(outcome.reason().replaceAll("\\p{Cntrl}", " ")).append('\n');
    }
    return text.toString();
  }

  static List<Outcome> decode(String text) {
    List<Outcome> outcomes = new ArrayList<>();
    for (String line : text.split("\n")) {
      String[] fields = line.split("\t", -1);
      if (fields.length != 6) {
        log.warn("ignoring malformed announcement line: {}", line);
        continue;
      }
      outcomes.add(new Outcome(Outcome.Kind.valueOf(fields[0]), fields[1], fields[2],
          Long.parseLong(fields[3]), Long.parseLong(fields[4]), fields[5]));
    }
    return outcomes;
  }

  /**
   * Listens on a dedicated connection until {@link Subscription#close()}, reconnecting after a
   * failure; {@code listener} runs on the subscription's thread and must not block.
   */
  public static Subscription subscribe(String host, int port, Consumer<Outcome> listener) {
    return new Subscription(host, port, listener);
  }

  /** A running subscription: a daemon thread holding one Redis connection. */
  public static final class Subscription implements AutoCloseable {
    private final JedisPubSub pubSub;
    private final Thread thread;
    private volatile boolean closed;

    private Subscription(String host, int port, Consumer<Outcome> listener) {
      pubSub = new JedisPubSub() {
        @Override
        public void onMessage(String channel, String message) {
          decode(message).forEach(listener);
        }
      };
      thread = new Thread(() -> {
        while (!closed) {
          try (Jedis connection = new Jedis(host, port)) {
            connection.subscribe(pubSub, CHANNEL);
          } catch (RuntimeException e) {
            if (!closed) {
              log.warn("announcement subscription lost, reconnecting: {}", e.getMessage());
              sleepQuietly(500);
            }
          }
        }
      }, "announcements-subscriber");
      thread.setDaemon(true);
      thread.start();
    }

    /** True once the subscription is registered with Redis (announcements before that are missed). */
    public boolean isSubscribed() {
      return pubSub.isSubscribed();
    }

    @Override
    public void close() {
      closed = true;
      if (pubSub.isSubscribed()) {
        pubSub.unsubscribe();
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
}
