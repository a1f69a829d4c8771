package io.seqsync.sequencer;

import java.nio.ByteBuffer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

/** What a command produced, remembered so that its repetition answers the same (msgId and seq). */
record DedupEntry(long msgId, long seq) {
  private static final int SIZE = 2 * Long.BYTES;

  static Serde<DedupEntry> serde() {
    Serializer<DedupEntry> serializer = (topic, entry) -> entry == null
        ? null
        : ByteBuffer.allocate(SIZE).putLong(entry.msgId()).putLong(entry.seq()).array();
    Deserializer<DedupEntry> deserializer = (topic, bytes) -> {
      if (bytes == null) {
        return null;
      }
      ByteBuffer buffer = ByteBuffer.wrap(bytes);
      return new DedupEntry(buffer.getLong(), buffer.getLong());
    };
    return Serdes.serdeFrom(serializer, deserializer);
  }
}
