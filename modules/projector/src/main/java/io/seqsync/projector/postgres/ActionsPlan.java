package io.seqsync.projector.postgres;

import io.seqsync.events.model.Message;
import io.seqsync.events.model.MessageEdited;
import io.seqsync.events.model.ReactionChanged;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.List;

/**
 * The message actions of one batch, in event order: the replies and mentions of its new messages,
 * its edits and its reaction changes. Written after the batch's messages and recalls by
 * {@link MessageActionsWriter}. Not thread-safe: part of a {@link ProjectionPlan}.
 */
final class ActionsPlan {
  record Sent(String convId, long seq, long senderId, Long replyTo, List<Long> mentions) {}

  record Edit(String convId, long seq, String content, long time) {}

  record Reaction(String convId, long seq, String emoji, long userId, boolean added, long time) {}

  final List<Sent> sent = new ArrayList<>();
  final List<Edit> edits = new ArrayList<>();
  final List<Reaction> reactions = new ArrayList<>();
  /** The read reports of the batch, each user's highest per conversation: they clear mentions. */
  final Map<ProjectionPlan.UserPosition, Long> readReports = new LinkedHashMap<>();

  void edited(MessageEdited edit) {
    Message notice = edit.getNotice();
    edits.add(new Edit(notice.getConvId(), edit.getEditedSeq(), edit.getContent(), notice.getCreateTime()));
  }

  void reacted(ReactionChanged reaction) {
    Message notice = reaction.getNotice();
    reactions.add(new Reaction(notice.getConvId(), reaction.getTargetSeq(), reaction.getEmoji(), notice.getSenderId(),
        reaction.getAdded(), notice.getCreateTime()));
  }

  /** A new message's reply and mentions, if it has any. */
  void sent(Message message) {
    if (message.getReplyTo() != null || !message.getMentions().isEmpty()) {
      sent.add(new Sent(message.getConvId(), message.getSeq(), message.getSenderId(), message.getReplyTo(),
          message.getMentions()));
    }
  }
}
