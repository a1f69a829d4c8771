package io.seqsync.redis;

import io.seqsync.store.StoredMessage;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import redis.clients.jedis.AbstractPipeline;

/**
 * What a connected device is told once PostgreSQL has committed it (R1, R19, R21): published by
 * the projector together with its recipient users on the Redis channel of each app instance that
 * holds a recipient's socket ({@link #channel(String)}, found through {@link SocketRegistry}), which
 * renders and sends the frames. One
 * line per notice, whatever the group's size: a message to 2,000 members is one line carrying
 * 2,000 ids, not 2,000 copies of the message. The actor (user and device) lets the
 * receiving side spare the device that caused it. One line, tab-separated: the recipients first,
 * the free text (a message, a draft) last. A projector batch's lines go out together, as few
 * publications as fit {@link #PUBLICATION_CHARS}, each line framed by its length (see
 * {@link #publish(AbstractPipeline, List)}). Immutable.
 */
public record PushNotice(Kind kind, String convId, long userId, String deviceId, long seq, List<Long> added,
    List<Long> removed, StoredMessage message, String text) {
  /** The prefix of the instances' channels. */
  public static final String CHANNEL = "seqsync:push:";
  /**
   * Most characters of lines in one publication (a single line may pass it): small against Redis's
   * output buffer limit for a subscriber (8 MB for a minute by default).
   */
  static final int PUBLICATION_CHARS = 64 * 1024;

  /** DELIVERED: a device of the user acked up to seq, told to the conversation's other members (receipts). */
  public enum Kind { MESSAGE, READ, CURSOR, DRAFT, RECALL, MEMBERSHIP, DELIVERED }

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

  /** Adds this notice to {@code recipients} to {@code lines}, as one line (no recipients: nothing). */
  public void address(Collection<Long> recipients, List<String> lines) {
    if (!recipients.isEmpty()) {
      lines.add(ids(recipients) + "\t" + encode());
    }
  }

  /** The channel of the app instance {@code instance}: it hears only the notices of its sockets' users. */
  public static String channel(String instance) {
    return CHANNEL + instance;
  }

  /**
   * Queues the publication of addressed lines to {@code instance}, in their order, in as few
   * publications as fit {@link #PUBLICATION_CHARS}: one PUBLISH per batch and instance rather than
   * per notice. Each line is framed as its length in chars, a colon and the line, since a line may
   * hold newlines (a message's text).
   */
  public static void publish(AbstractPipeline pipeline, String instance, List<String> lines) {
    publications(lines).forEach(publication -> pipeline.publish(channel(instance), publication));
  }

  /**
   * The addressed lines for one instance: each line with only the recipients {@code here} keeps,
   * a line none of whose recipients it keeps left out.
   */
  public static List<String> readdressed(List<String> lines, Predicate<Long> here) {
    List<String> kept = new ArrayList<>();
    for (String line : lines) {
      List<Long> recipients = recipients(line).stream().filter(here).toList();
      if (!recipients.isEmpty()) {
        kept.add(ids(recipients) + line.substring(line.indexOf('\t')));
      }
    }
    return kept;
  }

  static List<String> publications(List<String> lines) {
    List<String> publications = new ArrayList<>();
    StringBuilder publication = new StringBuilder();
    for (String line : lines) {
      if (publication.length() > 0 && publication.length() + line.length() > PUBLICATION_CHARS) {
        publications.add(publication.toString());
        publication.setLength(0);
      }
      publication.append(line.length()).append(':').append(line);
    }
    if (publication.length() > 0) {
      publications.add(publication.toString());
    }
    return publications;
  }

  /** The addressed lines of one publication. */
  public static List<String> lines(String publication) {
    List<String> lines = new ArrayList<>();
    int at = 0;
    while (at < publication.length()) {
      int colon = publication.indexOf(':', at);
      if (colon < 0) {
        throw new IllegalArgumentException("not a push publication: no length at " + at);
      }
      int end = colon + 1 + Integer.parseInt(publication, at, colon, 10);
      if (end > publication.length()) {
        throw new IllegalArgumentException("not a push publication: a line runs past its end");
      }
      lines.add(publication.substring(colon + 1, end));
      at = end;
    }
    return lines;
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
