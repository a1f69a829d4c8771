package io.seqsync.sequencer;

import java.nio.ByteBuffer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

/** A group as the sequencer keeps it: who created it (and may remove others) and how many members it has. */
record GroupState(long ownerId, int memberCount) {
  private static final int SIZE = Long.BYTES + Integer.BYTES;

  static Serde<GroupState> serde() {
    Serializer<GroupState> serializer = (topic, state) -> state == null
        ? null
        : ByteBuffer.allocate(SIZE).putLong(state.ownerId()).putInt(state.memberCount()).array();
    Deserializer<GroupState> deserializer = (topic, bytes) -> {
      if (bytes == null) {
        return null;
      }
      ByteBuffer buffer = ByteBuffer.wrap(bytes);
      return new GroupState(buffer.getLong(), buffer.getInt());
    };
    return Serdes.serdeFrom(serializer, deserializer);
  }
}
