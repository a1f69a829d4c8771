package io.seqsync.redis;

import io.seqsync.store.StoredMessage;

/**
 * A message as one Redis string: its fields tab-separated, the content last (so it may hold
 * tabs). Ids and types never contain tabs.
 */
final class RedisMessageCodec {
  private static final int FIELDS = 10;
  // A message with an attachment: its JSON (no tab: JSON escapes them) as one more field before the content.
  private static final String WITH_ATTACHMENT = "a\t";

  private RedisMessageCodec() {}

  static String encode(StoredMessage m) {
    String head = String.join("\t", Long.toString(m.msgId()), m.convId(), Long.toString(m.seq()),
        Long.toString(m.senderId()), m.senderDevice(), m.clientMsgId(), m.type(), Long.toString(m.createTime()),
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
      return f.length != FIELDS + 1 ? null : new StoredMessage(Long.parseLong(f[0]), f[1], Long.parseLong(f[2]),
          Long.parseLong(f[3]), f[4], f[5], f[6], f[10], Long.parseLong(f[7]), Boolean.parseBoolean(f[8]), f[9]);
    }
    String[] f = text.split("\t", FIELDS);
    if (f.length != FIELDS) {
      return null;
    }
    return new StoredMessage(Long.parseLong(f[0]), f[1], Long.parseLong(f[2]), Long.parseLong(f[3]), f[4], f[5],
        f[6], f[9], Long.parseLong(f[7]), Boolean.parseBoolean(f[8]));
  }
}
