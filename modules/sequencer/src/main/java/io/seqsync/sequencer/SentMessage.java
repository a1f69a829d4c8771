package io.seqsync.sequencer;

import org.apache.kafka.common.serialization.Serde;

/**
 * A send's dedup entry (R4): what it produced and its record timestamp, which decides whether a
 * retry falls within the window (the entry's window-store timestamp is only its bucket's start).
 */
record SentMessage(long msgId, long seq, long timestamp) {
  DedupEntry outcome() {
    return new DedupEntry(msgId, seq);
  }

  static Serde<SentMessage> serde() {
    return FixedSizeSerde.of(3 * Long.BYTES,
        (buffer, sent) -> buffer.putLong(sent.msgId()).putLong(sent.seq()).putLong(sent.timestamp()),
        buffer -> new SentMessage(buffer.getLong(), buffer.getLong(), buffer.getLong()));
  }
}
