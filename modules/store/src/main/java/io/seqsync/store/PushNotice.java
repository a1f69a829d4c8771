package io.seqsync.store;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.stream.Collectors;
import redis.clients.jedis.AbstractPipeline;

/**
 * What a connected device is told once PostgreSQL has committed it (R1, R19, R21): published by
 * the projector once on the Redis channel {@code seqsync:push} together with its recipient users,
 * so that whichever app instance holds a recipient's sockets renders and sends the frames. One
 * publication per notice, whatever the group's size: a message to 2,000 members is one PUBLISH
 * carrying 2,000 ids, not 2,000 copies of the message. The actor (user and device) lets the
 * receiving side spare the device that caused it. One line, tab-separated: the recipients first,
 * the free text (a message, a draft) last. Immutable.
 */
public record PushNotice(Kind kind, String convId, long userId, String deviceId, long seq, List<Long> added,
    List<Long> removed, StoredMessage message, String text) {
  public static final String CHANNEL = "seqsync:push";

  public enum Kind { MESSAGE, READ, CURSOR, DRAFT, RECALL, MEMBERSHIP }

  public static PushNotice message(StoredMessage message) {
    return new PushNotice(Kind.MESSAGE, message.convId(), message.senderId(), message.senderDevice(), message.seq(),
        List.of(), List.of(), message, null);
  }

  public static PushNotice position(Kind kind, String convId, long userId, String deviceId, long seq) {
    return new PushNotice(kind, convId, userId, deviceId, seq, List.of(), List.of(), null, null);
  }

  public static PushNotice draft(String convId, long userId, String deviceId, String text) {
    return new PushNotice(Kind.DRAFT, convId, userId, deviceId, 0, List.of(), List.of(), null, text);
  }

  public static PushNotice recall(StoredMessage notice, long recalledSeq) {
    return new PushNotice(Kind.RECALL, notice.convId(), notice.senderId(), notice.senderDevice(), recalledSeq,
        List.of(), List.of(), notice, null);
  }

  public static PushNotice membership(StoredMessage notice, List<Long> added, List<Long> removed) {
    return new PushNotice(Kind.MEMBERSHIP, notice.convId(), notice.senderId(), notice.senderDevice(), notice.seq(),
        added, removed, notice, null);
  }

  /** Queues the publication of this notice to {@code recipient}. */
  public void publish(AbstractPipeline pipeline, long recipient) {
    publish(pipeline, List.of(recipient));
  }

  /** Queues one publication of this notice to all of {@code recipients} (none: nothing). */
  public void publish(AbstractPipeline pipeline, Collection<Long> recipients) {
    if (!recipients.isEmpty()) {
      pipeline.publish(CHANNEL, ids(recipients) + "\t" + encode());
    }
  }

  /** The recipient users of a published line. */
  public static List<Long> recipients(String line) {
    int tab = line.indexOf('\t');
    if (tab < 0) {
      throw new IllegalArgumentException("not a push notice: " + line);
    }
    return ids(line.substring(0, tab));
  }

  /** The notice of a published line. */
  public static PushNotice decodeAddressed(String line) {
    return decode(line.substring(line.indexOf('\t') + 1));
  }

  String encode() {
    String tail = message != null ? RedisMessageCodec.encode(message) : text == null ? "" : text;
    return String.join("\t", kind.name(), convId, Long.toString(userId), deviceId, Long.toString(seq), ids(added),
        ids(removed), message != null ? "m" : "t", tail);
  }

  static PushNotice decode(String line) {
    String[] f = line.split("\t", 9);
    if (f.length != 9) {
      throw new IllegalArgumentException("not a push notice: " + line);
    }
    boolean hasMessage = f[7].equals("m");
    return new PushNotice(Kind.valueOf(f[0]), f[1], Long.parseLong(f[2]), f[3], Long.parseLong(f[4]), ids(f[5]),
        ids(f[6]), hasMessage ? RedisMessageCodec.decode(f[8]) : null, hasMessage ? null : f[8]);
  }

  private static String ids(Collection<Long> ids) {
    return ids.stream().map(String::valueOf).collect(Collectors.joining(","));
  }

  private static List<Long> ids(String text) {
    return text.isEmpty() ? List.of() : Arrays.stream(text.split(",")).map(Long::valueOf).toList();
  }
}
