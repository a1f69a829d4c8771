package io.seqsync.sequencer;

import org.apache.kafka.common.serialization.Serde;

/** What a command produced, remembered so that its repetition answers the same (msgId and seq). */
record DedupEntry(long msgId, long seq) {
  static Serde<DedupEntry> serde() {
    return FixedSizeSerde.of(2 * Long.BYTES, (buffer, entry) -> buffer.putLong(entry.msgId()).putLong(entry.seq()),
        buffer -> new DedupEntry(buffer.getLong(), buffer.getLong()));
  }
}
