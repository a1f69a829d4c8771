package io.seqsync.events;

import io.seqsync.events.model.AckCursor;
import io.seqsync.events.model.Attachment;
import io.seqsync.events.model.ChangeGroupSettings;
import io.seqsync.events.model.ChangeMembership;
import io.seqsync.events.model.Command;
import io.seqsync.events.model.EditMessage;
import io.seqsync.events.model.MessageType;
import io.seqsync.events.model.RecallMessage;
import io.seqsync.events.model.ChangeListSettings;
import io.seqsync.events.model.ReportRead;
import io.seqsync.events.model.SendMessage;
import io.seqsync.events.model.SetBlock;
import io.seqsync.events.model.SetGroupRole;
import io.seqsync.events.model.SetReaction;
import io.seqsync.events.model.UpdateDraft;
import java.util.List;
import java.util.UUID;

/**
 * Builds commands on behalf of a caller (the user and device of a token). Immutable; each call
 * gets a fresh commandId and the current time.
 */
public record Commands(long userId, String deviceId) {

  public Command send(String convId, String clientMsgId, MessageType type, String content) {
    return send(convId, clientMsgId, type, content, null, null, List.of());
  }

  /** A send whose message carries an uploaded object ({@code attachment} null: none). */
  public Command send(String convId, String clientMsgId, MessageType type, String content, Attachment attachment) {
    return send(convId, clientMsgId, type, content, attachment, null, List.of());
  }

  /** A send that replies to the message at {@code replyTo} (null: none) and mentions {@code mentions}. */
  public Command send(String convId, String clientMsgId, MessageType type, String content, Long replyTo,
      List<Long> mentions) {
    return send(convId, clientMsgId, type, content, null, replyTo, mentions);
  }

  /**
   * A send with an uploaded object ({@code attachment} null: none) that replies to the message at
   * {@code replyTo} (null: none) and mentions {@code mentions}.
   */
  public Command send(String convId, String clientMsgId, MessageType type, String content, Attachment attachment,
      Long replyTo, List<Long> mentions) {
    return command(convId, new SendMessage(clientMsgId, type, content, attachment, replyTo, mentions));
  }

  /** Message actions: the sender replaces the content of the message at {@code seq}. */
  public Command edit(String convId, long seq, String content) {
    return command(convId, new EditMessage(seq, content));
  }

  /** Message actions: the caller adds ({@code on}) or removes their reaction {@code emoji} to the message at {@code seq}. */
  public Command react(String convId, long seq, String emoji, boolean on) {
    return command(convId, new SetReaction(seq, emoji, on));
  }

  public Command sendText(String convId, String clientMsgId, String text) {
    return send(convId, clientMsgId, MessageType.TEXT, text);
  }

  public Command recall(String convId, long seq) {
    return command(convId, new RecallMessage(seq));
  }

  public Command ack(String convId, long seq) {
    return command(convId, new AckCursor(seq));
  }

  public Command read(String convId, long seq) {
    return command(convId, new ReportRead(seq));
  }

  public Command draft(String convId, String text) {
    return command(convId, new UpdateDraft(text));
  }

  public Command membership(String convId, List<Long> add, List<Long> remove, String groupName) {
    return command(convId, new ChangeMembership(add, remove, groupName));
  }

  /** {@code role}: owner, admin or member. */
  public Command role(String convId, long memberId, String role) {
    return command(convId, new SetGroupRole(memberId, role));
  }

  public Command settings(String convId, Boolean membersCanInvite) {
    return command(convId, new ChangeGroupSettings(membersCanInvite));
  }

  /** The caller blocks (or unblocks) the other user of the direct conversation {@code convId}. */
  public Command block(String convId, boolean blocked) {
    return command(convId, new SetBlock(blocked));
  }

  /** The caller's list settings of {@code convId}: muted, pinned (null keeps one). */
  public Command listSettings(String convId, Boolean muted, Boolean pinned) {
    return command(convId, new ChangeListSettings(muted, pinned));
  }

  private Command command(String convId, Object payload) {
    return new Command(UUID.randomUUID().toString(), convId, userId, deviceId, System.currentTimeMillis(), payload);
  }
}
