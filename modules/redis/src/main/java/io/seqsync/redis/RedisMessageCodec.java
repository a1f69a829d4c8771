package io.seqsync.redis;

import io.seqsync.store.MessageState;
import io.seqsync.store.StoredMessage;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A message as one Redis string: its fields tab-separated, the content last (so it may hold
 * tabs). Ids and types never contain tabs. A reply's seq and the mentions (message actions) follow
 * the type after semicolons ({@code text;4;2,3}), which a type never holds: a value without them
 * reads as before.
 */
final class RedisMessageCodec {
  private static final int FIELDS = 10;
  // A message with an attachment: its JSON (no tab: JSON escapes them) as one more field before the content.
  private static final String WITH_ATTACHMENT = "a\t";

  private RedisMessageCodec() {}

  static String encode(StoredMessage m) {
    String head = String.join("\t", Long.toString(m.msgId()), m.convId(), Long.toString(m.seq()),
        Long.toString(m.senderId()), m.senderDevice(), m.clientMsgId(), typeAndActions(m), Long.toString(m.createTime()),
        Boolean.toString(m.recalled()));
    return m.attachment() == null ? head + "\t" + m.content()
        : WITH_ATTACHMENT + head + "\t" + m.attachment() + "\t" + m.content();
  }

  /** The message, or null for a missing or malformed value. */
  static StoredMessage decode(String text) {
    if (text == null) {
      return null;
    }
    if (text.startsWith(WITH_ATTACHMENT)) {
      String[] f = text.substring(WITH_ATTACHMENT.length()).split("\t", FIELDS + 1);
      return f.length != FIELDS + 1 ? null : typed(f[6], type -> new StoredMessage(Long.parseLong(f[0]), f[1],
          Long.parseLong(f[2]), Long.parseLong(f[3]), f[4], f[5], type, f[10], Long.parseLong(f[7]),
          Boolean.parseBoolean(f[8]), f[9], null));
    }
    String[] f = text.split("\t", FIELDS);
    if (f.length != FIELDS) {
      return null;
    }
    return typed(f[6], type -> new StoredMessage(Long.parseLong(f[0]), f[1], Long.parseLong(f[2]),
        Long.parseLong(f[3]), f[4], f[5], type, f[9], Long.parseLong(f[7]), Boolean.parseBoolean(f[8]), null, null));
  }

  // The type field: the type, then a reply's seq and the mentions when the message has them.
  private static StoredMessage typed(String typeField, Function<String, StoredMessage> make) {
    String[] type = typeField.split(";", -1);
    StoredMessage message = make.apply(type[0]);
    if (type.length < 3) {
      return message;
    }
    Long replyTo = type[1].isEmpty() ? null : Long.valueOf(type[1]);
    List<Long> mentions = type[2].isEmpty() ? List.of() : Arrays.stream(type[2].split(",")).map(Long::valueOf).toList();
    return message.withState(new MessageState(null, replyTo, null, mentions, 0, List.of()));
  }

  private static String typeAndActions(StoredMessage m) {
    MessageState state = m.state();
    if (state == null || (state.replyTo() == null && state.mentions().isEmpty())) {
      return m.type();
    }
    return m.type() + ";" + (state.replyTo() == null ? "" : state.replyTo()) + ";"
        + state.mentions().stream().map(String::valueOf).collect(Collectors.joining(","));
  }
}
