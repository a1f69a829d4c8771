package io.seqsync.sequencer;

import org.apache.kafka.common.serialization.Serde;

/** A group as the sequencer keeps it: who created it (and may remove others) and how many members it has. */
record GroupState(long ownerId, int memberCount) {
  static Serde<GroupState> serde() {
    return FixedSizeSerde.of(Long.BYTES + Integer.BYTES,
        (buffer, state) -> buffer.putLong(state.ownerId()).putInt(state.memberCount()),
        buffer -> new GroupState(buffer.getLong(), buffer.getInt()));
  }
}
