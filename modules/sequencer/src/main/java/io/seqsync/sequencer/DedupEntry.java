package io.seqsync.sequencer;

import org.apache.kafka.common.serialization.Serde;

/**
 * A send's dedup entry (R4): what it produced and its record timestamp, which decides whether a
 * retry falls within the window (the entry's window-store timestamp is only its bucket's start).
 */
record DedupEntry(long msgId, long seq, long timestamp) {
  ProducedMessage produced() {
    return new ProducedMessage(msgId, seq);
  }

  static Serde<DedupEntry> serde() {
    return FixedSizeSerde.of(3 * Long.BYTES,
        (buffer, entry) -> buffer.putLong(entry.msgId()).putLong(entry.seq()).putLong(entry.timestamp()),
        buffer -> new DedupEntry(buffer.getLong(), buffer.getLong(), buffer.getLong()));
  }
}
