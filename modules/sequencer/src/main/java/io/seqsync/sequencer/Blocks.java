package io.seqsync.sequencer;

import static io.seqsync.sequencer.SequencerStores.key;

import io.seqsync.events.ConvId;
import io.seqsync.events.model.BlockChanged;
import io.seqsync.events.model.Command;
import io.seqsync.events.model.SetBlock;
import java.util.List;

/**
 * Blocks in direct conversations: who blocked the other, kept in the task's state, and whether a
 * send is refused because the other user blocked the sender. One per processor, so not shared
 * between threads.
 */
final class Blocks {
  private final StateTable<Long> blocks;
  private final CommandOutput out;

  Blocks(StateTable<Long> blocks, CommandOutput out) {
    this.blocks = blocks;
    this.out = out;
  }

  // The validator checked that the conversation is direct and names the caller.
  void set(Command command, SetBlock block, long timestamp) {
    String blockKey = key(command.getConvId(), command.getUserId());
    if (block.getBlocked()) {
      blocks.put(blockKey, 1L);
    } else {
      blocks.delete(blockKey);
    }
    out.emit(command, new BlockChanged(command.getUserId(), otherUser(command), block.getBlocked()), timestamp);
  }

  /** Whether the command's conversation is direct and its other user blocked the command's user. */
  boolean blockedByOther(Command command) {
    return command.getConvId().startsWith("d:")
        && blocks.get(key(command.getConvId(), otherUser(command))) != null;
  }

  private static long otherUser(Command command) {
    List<Long> users = ConvId.parse(command.getConvId()).orElseThrow().directUsers();
    return users.get(0) == command.getUserId() ? users.get(1) : users.get(0);
  }
}
