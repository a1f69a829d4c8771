package io.seqsync.ingress;

import org.jdbi.v3.core.Jdbi;

/** Writes projection rows with plain SQL, as the projector would, for the tests. */
final class Rows {
  private final Jdbi jdbi;

  Rows(Jdbi jdbi) {
    this.jdbi = jdbi;
  }

  /** A conversation with its members (idempotent); the watermark is moved by {@link #message}. */
  Rows conversation(String convId, long... members) {
    jdbi.useTransaction(handle -> {
      handle.execute("insert into conversations (conv_id, kind) values (?, ?) on conflict do nothing",
          convId, convId.startsWith("g:") ? "group" : "direct");
      for (long member : members) {
        handle.execute("insert into conversation_members (conv_id, user_id) values (?, ?) on conflict do nothing",
            convId, member);
      }
    });
    return this;
  }

  /** A message, and the watermark and last activity moved up to it, in one transaction. */
  Rows message(String convId, long seq, long msgId, long senderId, String type, String content) {
    jdbi.useTransaction(handle -> {
      handle.execute("insert into conversations (conv_id, kind) values (?, ?) on conflict do nothing",
          convId, convId.startsWith("g:") ? "group" : "direct");
      handle.execute("insert into messages (conv_id, seq, msg_id, sender_id, sender_device, client_msg_id, type,"
              + " content, create_time) values (?, ?, ?, ?, 'phone', ?, ?, ?, ?)",
          convId, seq, msgId, senderId, "client-" + msgId, type, content, 1_700_000_000_000L + seq);
      handle.execute("update conversations set latest_seq = greatest(latest_seq, ?), last_activity = ? where conv_id = ?",
          seq, 1_700_000_000_000L + seq, convId);
    });
    return this;
  }

  /** Messages first..last of the conversation, text from {@code senderId}, msgId = 1000 * seq. */
  Rows messages(String convId, long first, long last, long senderId) {
    for (long seq = first; seq <= last; seq++) {
      message(convId, seq, 1000 * seq + (convId.hashCode() & 0x3ff), senderId, "text", "m" + seq);
    }
    return this;
  }

  Rows deviceCursor(long userId, String deviceId, String convId, long seq) {
    jdbi.useHandle(handle -> handle.execute("insert into device_cursors (user_id, device_id, conv_id, seq)"
        + " values (?, ?, ?, ?) on conflict (user_id, device_id, conv_id) do update set seq = excluded.seq",
        userId, deviceId, convId, seq));
    return this;
  }

  Rows readSeq(long userId, String convId, long seq) {
    jdbi.useHandle(handle -> handle.execute("insert into read_positions (user_id, conv_id, seq) values (?, ?, ?)"
        + " on conflict (user_id, conv_id) do update set seq = excluded.seq", userId, convId, seq));
    return this;
  }

  Rows recalled(String convId, long seq) {
    jdbi.useHandle(handle -> handle.execute("update messages set recalled = true where conv_id = ? and seq = ?",
        convId, seq));
    return this;
  }
}
