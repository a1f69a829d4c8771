package io.seqsync.sequencer;

import static io.seqsync.sequencer.SequencerStores.key;

import io.seqsync.events.model.Command;
import io.seqsync.events.model.EditMessage;
import io.seqsync.events.model.Message;
import io.seqsync.events.model.MessageEdited;
import io.seqsync.events.model.MessageType;
import io.seqsync.events.model.ReactionChanged;
import io.seqsync.events.model.RecallApplied;
import io.seqsync.events.model.RecallMessage;
import io.seqsync.events.model.RejectReason;
import io.seqsync.events.model.SetReaction;

/**
 * What is done to a stored message: recalls, edits and reactions, each a notice at the
 * conversation's next seq. The ingress checked the sender, the type and the edit window against the
 * stored message; what only the log's order decides is checked here: the target exists and was not
 * recalled, and a repeated recall or reaction is answered with the notice it produced. One per
 * processor, so not shared between threads.
 */
final class MessageActions {
  private final ConversationSeqs seqs;
  private final StateTable<ProducedMessage> recalls;
  private final StateTable<ProducedMessage> reactions;
  private final CommandOutput out;

  MessageActions(ConversationSeqs seqs, StateTable<ProducedMessage> recalls, StateTable<ProducedMessage> reactions,
      CommandOutput out) {
    this.seqs = seqs;
    this.recalls = recalls;
    this.reactions = reactions;
    this.out = out;
  }

  void recall(Command command, RecallMessage recall, long timestamp) {
    if (recall.getSeq() > seqs.latest(command.getConvId())) {
      out.reject(command, RejectReason.NO_SUCH_MESSAGE, "no message at seq " + recall.getSeq(), timestamp);
      return;
    }
    String recallKey = key(command.getConvId(), recall.getSeq());
    ProducedMessage earlierNotice = recalls.get(recallKey);
    if (earlierNotice != null) {
      out.reply(command, earlierNotice, timestamp);
      return;
    }
    Message notice = seqs.append(command, command.getCommandId(), MessageType.RECALL, Long.toString(recall.getSeq()));
    recalls.put(recallKey, new ProducedMessage(notice.getMsgId(), notice.getSeq()));
    // A recalled message takes no more reactions: their entries would only linger.
    reactions.withKeyPrefix(recallKey + '\u0000').forEach(entry -> reactions.delete(entry.getKey()));
    out.emit(command, new RecallApplied(notice, recall.getSeq()), timestamp);
  }

  void edit(Command command, EditMessage edit, long timestamp) {
    if (!actionable(command, edit.getSeq(), timestamp)) {
      return;
    }
    Message notice = seqs.append(command, command.getCommandId(), MessageType.EDIT,
        ActionNotices.edit(edit.getSeq(), edit.getContent()));
    out.emit(command, new MessageEdited(notice, edit.getSeq(), edit.getContent()), timestamp);
  }

  // One reaction per user, message and emoji: a repeated one is answered with the notice that added it.
  void react(Command command, SetReaction reaction, long timestamp) {
    if (!actionable(command, reaction.getSeq(), timestamp)) {
      return;
    }
    String reactionKey = key(command.getConvId(), reaction.getSeq(), command.getUserId(), reaction.getEmoji());
    ProducedMessage added = reactions.get(reactionKey);
    if (reaction.getOn() && added != null) {
      out.reply(command, added, timestamp);
      return;
    }
    if (!reaction.getOn() && added == null) {
      // The emoji is sealed (docs/design.md, "Erasure"): the detail does not repeat it.
      out.reject(command, RejectReason.NO_SUCH_REACTION, "no such reaction of yours", timestamp);
      return;
    }
    Message notice = seqs.append(command, command.getCommandId(), MessageType.REACTION,
        ActionNotices.reaction(reaction.getSeq(), reaction.getEmoji(), reaction.getOn()));
    if (reaction.getOn()) {
      reactions.put(reactionKey, new ProducedMessage(notice.getMsgId(), notice.getSeq()));
    } else {
      reactions.delete(reactionKey);
    }
    out.emit(command, new ReactionChanged(notice, reaction.getSeq(), reaction.getEmoji(), reaction.getOn()), timestamp);
  }

  // The target exists and was not recalled (a recall keeps its meaning: nothing changes the message after it).
  private boolean actionable(Command command, long seq, long timestamp) {
    if (seq > seqs.latest(command.getConvId())) {
      out.reject(command, RejectReason.NO_SUCH_MESSAGE, "no message at seq " + seq, timestamp);
      return false;
    }
    if (recalls.get(key(command.getConvId(), seq)) != null) {
      out.reject(command, RejectReason.RECALLED, "the message at seq " + seq + " was recalled", timestamp);
      return false;
    }
    return true;
  }
}
