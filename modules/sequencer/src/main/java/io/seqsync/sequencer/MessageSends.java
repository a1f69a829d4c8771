package io.seqsync.sequencer;

import static io.seqsync.sequencer.SequencerStores.key;

import io.seqsync.events.ConvId;
import io.seqsync.events.model.Command;
import io.seqsync.events.model.Message;
import io.seqsync.events.model.MessageAppended;
import io.seqsync.events.model.RejectReason;
import io.seqsync.events.model.SendMessage;
import org.apache.kafka.streams.state.WindowStore;

/**
 * Sends (R4): a retry within the dedup window is answered with what the original produced, a reply
 * must name a message that exists, mentions keep only the conversation's members, and the sender
 * has read their own message. The caller checked membership and blocks. One per processor, so not
 * shared between threads.
 */
final class MessageSends {
  private final ConversationSeqs seqs;
  private final WindowStore<String, DedupEntry> dedup;
  private final long dedupWindowMs;
  private final StateTable<Long> reads;
  private final GroupRules groups;
  private final CommandOutput out;

  MessageSends(ConversationSeqs seqs, WindowStore<String, DedupEntry> dedup, long dedupWindowMs,
      StateTable<Long> reads, GroupRules groups, CommandOutput out) {
    this.seqs = seqs;
    this.dedup = dedup;
    this.dedupWindowMs = dedupWindowMs;
    this.reads = reads;
    this.groups = groups;
    this.out = out;
  }

  void send(Command command, SendMessage send, long timestamp) {
    String dedupKey = key(command.getConvId(), send.getClientMsgId());
    ProducedMessage original = withinDedupWindow(dedupKey, timestamp);
    if (original != null) {
      out.reply(command, original, timestamp);
      return;
    }
    if (send.getReplyTo() != null && send.getReplyTo() > seqs.latest(command.getConvId())) {
      out.reject(command, RejectReason.NO_SUCH_MESSAGE, "replyTo: no message at seq " + send.getReplyTo(), timestamp);
      return;
    }
    Message message = seqs.append(command, send.getClientMsgId(), send.getType(), send.getContent());
    message.setAttachment(send.getAttachment());
    message.setReplyTo(send.getReplyTo());
    // Mentions of users outside the conversation (one who left since) are dropped, not refused.
    message.setMentions(send.getMentions().stream().filter(userId -> isMember(command.getConvId(), userId)).toList());
    dedup.put(dedupKey, new DedupEntry(message.getMsgId(), message.getSeq(), timestamp),
        SequencerStores.dedupBucket(timestamp, dedupWindowMs));
    // A sender has read their own message (R18): no event of its own, the projector derives the
    // same from MessageAppended; the store keeps a later, lower read report from counting.
    if (!CommandValidator.systemSend(command)) {
      reads.put(key(command.getUserId(), command.getConvId()), message.getSeq());
    }
    out.emit(command, new MessageAppended(message), timestamp);
  }

  private boolean isMember(String convId, long userId) {
    return convId.startsWith("g:") ? groups.isMember(convId, userId) : ConvId.parse(convId).orElseThrow().namesUser(userId);
  }

  // An original within ±window of this record's timestamp is filed in this bucket or a neighbour.
  private ProducedMessage withinDedupWindow(String dedupKey, long timestamp) {
    long bucket = SequencerStores.dedupBucket(timestamp, dedupWindowMs);
    for (long start : new long[] {bucket, bucket - dedupWindowMs, bucket + dedupWindowMs}) {
      DedupEntry entry = start < 0 ? null : dedup.fetch(dedupKey, start);
      if (entry != null && Math.abs(entry.timestamp() - timestamp) <= dedupWindowMs) {
        return entry.produced();
      }
    }
    return null;
  }
}
