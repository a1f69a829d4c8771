package io.seqsync.sequencer;

import io.seqsync.events.model.Command;
import io.seqsync.events.model.Message;
import io.seqsync.events.model.MessageType;
import java.util.OptionalLong;
import java.util.function.LongSupplier;

/**
 * Each conversation's seqs in the task's state: the latest one, the next one for an appended
 * message (with a new msgId), and positions (cursors, reads) that only move forward up to the
 * latest. Store errors are not caught: an empty answer would restart a conversation at seq 1. One
 * per processor, so not shared between threads.
 */
final class ConversationSeqs {
  private final StateTable<Long> convSeq;
  private final MsgIdClock msgIds;
  private final LongSupplier clock;

  ConversationSeqs(StateTable<Long> convSeq, MsgIdClock msgIds, LongSupplier clock) {
    this.convSeq = convSeq;
    this.msgIds = msgIds;
    this.clock = clock;
  }

  long latest(String convId) {
    Long latest = convSeq.get(convId);
    return latest == null ? 0 : latest;
  }

  /** Appends a message by the command's user and device at the conversation's next seq. */
  Message append(Command command, String clientMsgId, MessageType type, String content) {
    long seq = latest(command.getConvId()) + 1;
    convSeq.put(command.getConvId(), seq);
    long now = clock.getAsLong();
    long msgId = msgIds.next(now);
    return Message.newBuilder()
        .setMsgId(msgId)
        .setConvId(command.getConvId())
        .setSeq(seq)
        .setSenderId(command.getUserId())
        .setSenderDevice(command.getDeviceId())
        .setClientMsgId(clientMsgId)
        .setType(type)
        .setContent(content)
        .setCreateTime(now)
        .build();
  }

  /**
   * Moves a forward-only position: clamped to the latest seq (an ack beyond it is dirty data),
   * and a move backwards or nowhere is swallowed (R12). Empty when nothing moved.
   */
  OptionalLong advance(StateTable<Long> positions, String positionKey, Command command, long requested) {
    long target = Math.min(requested, latest(command.getConvId()));
    Long current = positions.get(positionKey);
    if (target <= (current == null ? 0 : current)) {
      return OptionalLong.empty();
    }
    positions.put(positionKey, target);
    return OptionalLong.of(target);
  }
}
