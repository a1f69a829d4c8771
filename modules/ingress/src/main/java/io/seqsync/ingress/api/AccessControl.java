package io.seqsync.ingress.api;

import io.seqsync.events.ConvId;
import io.seqsync.events.UserIds;
import io.seqsync.ingress.auth.Caller;
import io.seqsync.ingress.http.ApiException;
import io.seqsync.store.ConversationQueries;
import io.seqsync.store.MessageQueries;
import io.seqsync.store.StoredMessage;
import java.util.Set;

/** Who may do what in a conversation; each check throws the fitting {@link ApiException}. Thread-safe. */
public final class AccessControl {
  private static final Set<String> RECALLABLE_TYPES = Set.of("text", "image", "file");

  private final ConversationQueries conversations;
  private final MessageQueries messages;

  public AccessControl(ConversationQueries conversations, MessageQueries messages) {
    this.conversations = conversations;
    this.messages = messages;
  }

  /** The conversation id of a path, or a 400. */
  public static ConvId convId(String text) {
    return ConvId.parse(text).orElseThrow(() -> ApiException.badRequest("invalid_conv_id",
        "not a conversation id (d:{smallerUid}:{largerUid} or g:{id}): " + abbreviate(text)));
  }

  static String abbreviate(String text) {
    return text == null || text.length() <= 80 ? text : text.substring(0, 80) + "...";
  }

  /**
   * Passes when the caller belongs to the conversation: 403 when not, 404 for an unknown group.
   * Returns the floor of the history the caller may read: the seq just below where they joined (0: all of it).
   */
  public long requireMember(Caller caller, ConvId convId) {
    ConversationQueries.Access access = conversations.access(convId, caller.userId());
    switch (access.membership()) {
      case MEMBER -> { }
      // The server API's system sender (no token names it) writes to any conversation there is.
      case NOT_MEMBER -> {
        if (caller.userId() != UserIds.SYSTEM) {
          throw ApiException.forbidden("not_a_member", "you are not a member of " + convId);
        }
      }
      case NO_SUCH_CONVERSATION -> throw ApiException.notFound("no_such_conversation", "no conversation " + convId);
    }
    return Math.max(0, access.joinedSeq() - 1);
  }

  /**
   * The message the caller may recall: a member's own message of a client type that is stored at
   * {@code seq}; 404 when there is none, 403 when another user sent it, 409 for a notice.
   */
  StoredMessage requireRecallable(Caller caller, ConvId convId, long seq) {
    requireMember(caller, convId);
    StoredMessage message = messages.bySeq(convId.value(), seq)
        .orElseThrow(() -> ApiException.notFound("no_such_message", "no message at seq " + seq + " in " + convId));
    if (message.senderId() != caller.userId()) {
      throw ApiException.forbidden("not_sender", "only the sender may recall a message");
    }
    if (!RECALLABLE_TYPES.contains(message.type())) {
      throw ApiException.conflict("not_recallable", "a " + message.type() + " message cannot be recalled");
    }
    return message;
  }
}
