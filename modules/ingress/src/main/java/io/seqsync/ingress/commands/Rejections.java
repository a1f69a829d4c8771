package io.seqsync.ingress.commands;

import io.seqsync.events.model.RejectReason;
import io.seqsync.ingress.http.ApiException;
import java.util.Locale;

/**
 * The error answer for a command the sequencer rejected. The projector's outcome carries the
 * reason as text; it is expected to start with the {@link RejectReason} name (for example
 * {@code "NO_SUCH_MESSAGE: no message at seq 9"}), and the detail is passed on as the message.
 */
final class Rejections {
  private Rejections() {}

  static ApiException toApiException(String reason) {
    String text = reason == null ? "" : reason.strip();
    RejectReason kind = RejectReason.UNKNOWN;
    for (RejectReason candidate : RejectReason.values()) {
      if (text.startsWith(candidate.name())) {
        kind = candidate;
        break;
      }
    }
    String message = text.isEmpty() ? "the command was rejected" : text;
    return switch (kind) {
      case NO_SUCH_MESSAGE -> ApiException.notFound("no_such_message", message);
      case NOT_RECALLABLE -> ApiException.conflict("not_recallable", message);
      case NOT_ALLOWED -> text.contains("not a member") ? ApiException.forbidden("not_a_member", message)
          : text.contains("holds at most") ? ApiException.conflict("group_full", message)
          : ApiException.forbidden("not_allowed", message);
      case INVALID_COMMAND -> text.toLowerCase(Locale.ROOT).contains("not a member")
          ? ApiException.forbidden("not_a_member", message)
          : ApiException.badRequest("invalid_command", message);
      case NOT_ADMIN -> ApiException.forbidden("not_admin", message);
      case NOT_OWNER -> ApiException.forbidden("not_owner", message);
      case BLOCKED -> ApiException.forbidden("blocked", message);
      case RECALLED -> ApiException.conflict("recalled", message);
      case NO_SUCH_REACTION -> ApiException.notFound("no_such_reaction", message);
      case UNKNOWN -> ApiException.conflict("rejected", message);
    };
  }
}
