package io.seqsync.analytics;

import io.seqsync.events.model.CommandRejected;
import io.seqsync.events.model.CursorAdvanced;
import io.seqsync.events.model.DraftUpdated;
import io.seqsync.events.model.Event;
import io.seqsync.events.model.MembershipChanged;
import io.seqsync.events.model.Message;
import io.seqsync.events.model.MessageAppended;
import io.seqsync.events.model.MessageType;
import io.seqsync.events.model.ReadAdvanced;
import io.seqsync.events.model.RecallApplied;
import io.seqsync.events.model.RejectReason;
import java.time.Instant;
import java.util.List;

/** Events as the sequencer writes them, for the analytics tests. */
final class LogEvents {
  private LogEvents() {}

  static Event appended(String convId, long seq, long senderId, MessageType type, Instant time) {
    return event(convId, time, new MessageAppended(message(convId, seq, senderId, type, time)));
  }

  static Event recall(String convId, long seq, long senderId, long recalledSeq, Instant time) {
    return event(convId, time, new RecallApplied(message(convId, seq, senderId, MessageType.RECALL, time), recalledSeq));
  }

  static Event edited(String convId, long seq, long senderId, long editedSeq, Instant time) {
    return event(convId, time, new io.seqsync.events.model.MessageEdited(message(convId, seq, senderId, MessageType.EDIT, time),
        editedSeq, "edited"));
  }

  static Event membership(String convId, long seq, long byUserId, List<Long> added, Instant time) {
    return event(convId, time,
        new MembershipChanged(message(convId, seq, byUserId, MessageType.SYSTEM, time), added, List.of(), "team", List.of()));
  }

  static Event cursor(String convId, long userId, long seq, Instant time) {
    return event(convId, time, new CursorAdvanced(userId, "phone", seq));
  }

  static Event read(String convId, long userId, long seq, Instant time) {
    return event(convId, time, new ReadAdvanced(userId, "phone", seq));
  }

  static Event draft(String convId, long userId, Instant time) {
    return event(convId, time, new DraftUpdated(userId, "phone", "half a thought"));
  }

  static Event rejected(String convId, RejectReason reason, Instant time) {
    return event(convId, time, new CommandRejected(reason, "why"));
  }

  private static Event event(String convId, Instant time, Object payload) {
    return new Event(convId, "c-" + System.nanoTime(), time.toEpochMilli(), payload);
  }

  private static Message message(String convId, long seq, long senderId, MessageType type, Instant time) {
    return Message.newBuilder().setMsgId(seq * 1000 + senderId).setConvId(convId).setSeq(seq).setSenderId(senderId)
        .setSenderDevice("phone").setClientMsgId("m-" + convId + "-" + seq).setType(type)
        .setContent(type == MessageType.RECALL ? "1" : "hello").setCreateTime(time.toEpochMilli()).build();
  }
}
