package io.seqsync.sequencer;

import java.nio.ByteBuffer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/**
 * A group as the sequencer keeps it: its owner (0 once its last member left), how many members it
 * has and its settings. Stored with a version byte first, so that a later layout can read this one.
 */
record GroupState(long ownerId, int memberCount, boolean membersCanInvite) {
  private static final byte VERSION = 2;
  private static final int BYTES = 1 + Long.BYTES + Integer.BYTES + 1;

  GroupState withOwner(long owner) {
    return new GroupState(owner, memberCount, membersCanInvite);
  }

  static Serde<GroupState> serde() {
    return Serdes.serdeFrom(
        (topic, state) -> state == null ? null : ByteBuffer.allocate(BYTES).put(VERSION)
            .putLong(state.ownerId()).putInt(state.memberCount()).put((byte) (state.membersCanInvite() ? 1 : 0))
            .array(),
        (topic, bytes) -> bytes == null ? null : read(ByteBuffer.wrap(bytes)));
  }

  private static GroupState read(ByteBuffer buffer) {
    byte version = buffer.get();
    if (version != VERSION || buffer.remaining() != BYTES - 1) {
      throw new IllegalStateException("group state of an unknown layout: version " + version);
    }
    return new GroupState(buffer.getLong(), buffer.getInt(), buffer.get() != 0);
  }
}
