package io.seqsync.store;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.JedisPubSub;

/**
 * The announcement of what the projection has stored, on a Redis pub/sub channel, so that every
 * ingress instance can answer its waiting sends (and, later, push) only after PostgreSQL has
 * committed the rows: store, then announce (R1). One message per committed projector batch, a
 * line per outcome, tab-separated (ids never contain control characters): kind, commandId, convId,
 * seq, msgId, createTime, reason; a line without createTime (six fields, an earlier version's) is
 * read with createTime 0. Pub/sub is best effort: a missed announcement makes a send answer 202,
 * never a wrong answer.
 */
public final class Announcements {
  public static final String CHANNEL = "seqsync:stored";
  private static final Logger log = LoggerFactory.getLogger(Announcements.class);
  private static final Pattern CONTROL_CHARACTERS = Pattern.compile("\\p{Cntrl}");

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
          .append(outcome.createTime()).append('\t').append(printable(outcome.reason())).append('\n');
    }
    return text.toString();
  }

  // Most outcomes have no reason: no pattern run for them (String.replaceAll compiles one per call).
  private static String printable(String reason) {
    return reason.isEmpty() ? reason : CONTROL_CHARACTERS.matcher(reason).replaceAll(" ");
  }

  /** The outcomes of one announcement; malformed lines are logged and skipped. */
  public static List<Outcome> decode(String text) {
    List<Outcome> outcomes = new ArrayList<>();
    for (String line : text.split("\n")) {
      String[] fields = line.split("\t", -1);
      if (fields.length != 6 && fields.length != 7) {
        log.warn("ignoring malformed announcement line: {}", line);
        continue;
      }
      long createTime = fields.length == 7 ? Long.parseLong(fields[5]) : 0;
      outcomes.add(new Outcome(Outcome.Kind.valueOf(fields[0]), fields[1], fields[2],
          Long.parseLong(fields[3]), Long.parseLong(fields[4]), createTime, fields[fields.length - 1]));
    }
    return outcomes;
  }

  /**
   * Listens on a dedicated connection until the subscription is closed, reconnecting after a
   * failure; {@code listener} runs on the subscription's thread and must not block.
   */
  public static RedisSubscription subscribe(String host, int port, Consumer<Outcome> listener) {
    return new RedisSubscription(host, port, new JedisPubSub() {
      @Override
      public void onMessage(String channel, String message) {
        decode(message).forEach(listener);
      }
    }, false, CHANNEL);
  }
}
