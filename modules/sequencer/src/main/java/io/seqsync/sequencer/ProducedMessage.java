package io.seqsync.sequencer;

import org.apache.kafka.common.serialization.Serde;

/**
 * The message a command produced (its msgId and seq), remembered so that its repetition answers
 * the same: a send's in its {@link DedupEntry}, a recall's or a reaction's notice in its state table.
 */
record ProducedMessage(long msgId, long seq) {
  static Serde<ProducedMessage> serde() {
    return FixedSizeSerde.of(2 * Long.BYTES, (buffer, produced) -> buffer.putLong(produced.msgId()).putLong(produced.seq()),
        buffer -> new ProducedMessage(buffer.getLong(), buffer.getLong()));
  }
}
