package io.seqsync.ingress.api;

import io.seqsync.events.Commands;
import io.seqsync.events.ConvId;
import io.seqsync.events.model.Command;
import io.seqsync.ingress.auth.Caller;
import io.seqsync.ingress.commands.CommandRoundTrip;
import io.seqsync.ingress.http.Answer;
import io.seqsync.ingress.http.ApiException;
import io.seqsync.ingress.http.ApiRequest;
import io.seqsync.ingress.http.Json;
import io.seqsync.store.MessageQueries;
import io.seqsync.store.StoredMessage;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Message actions on a stored message: an edit by its sender within the edit window, a reaction
 * added or removed by any member. Each is a notice with its own seq in the conversation's log, as
 * a recall is: 200 with the notice once stored, 202 when not within the reply budget. What the
 * stored message decides (who sent it, its type, its age) is checked here; what the log's order
 * decides (recalled since, the reaction there or not) by the sequencer. Thread-safe.
 */
public final class ActionEndpoints {
  private static final Set<String> CLIENT_TYPES = Set.of("text", "image", "file");

  private final int maxContentBytes;
  private final Duration editWindow;
  private final AccessControl access;
  private final MessageQueries messages;
  private final CommandRoundTrip roundTrip;
  private final Clock clock;

  public ActionEndpoints(int maxContentBytes, Duration editWindow, AccessControl access, MessageQueries messages,
      CommandRoundTrip roundTrip, Clock clock) {
    this.maxContentBytes = maxContentBytes;
    this.editWindow = editWindow;
    this.access = access;
    this.messages = messages;
    this.roundTrip = roundTrip;
    this.clock = clock;
  }

  /** POST /v1/conversations/{convId}/messages/{seq}/edit {content}. */
  public CompletableFuture<Answer> edit(Caller caller, ApiRequest request) {
    byte[] body = request.body();
    ConvId convId = AccessControl.convId(request.pathParam("convId"));
    long seq = MessageEndpoints.seqParam(request.pathParam("seq"));
    String content = ActionRequests.editContent(Json.object(body), maxContentBytes);
    StoredMessage message = target(caller, convId, seq, "edited");
    if (message.senderId() != caller.userId()) {
      throw ApiException.forbidden("not_sender", "only the sender may edit a message");
    }
    if (clock.millis() - message.createTime() > editWindow.toMillis()) {
      throw ApiException.conflict("edit_window_passed",
          "a message can be edited for " + editWindow.toMinutes() + " minutes after it was sent");
    }
    return noticed(roundTrip, new Commands(caller.userId(), caller.deviceId()).edit(convId.value(), seq, content), convId, seq);
  }

  /** PUT /v1/conversations/{convId}/messages/{seq}/reactions/{emoji}: 200 with duplicate true when it is there already. */
  public CompletableFuture<Answer> react(Caller caller, ApiRequest request) {
    return reaction(caller, request, true);
  }

  /** DELETE /v1/conversations/{convId}/messages/{seq}/reactions/{emoji}: 404 no_such_reaction when it is not there. */
  public CompletableFuture<Answer> unreact(Caller caller, ApiRequest request) {
    return reaction(caller, request, false);
  }

  private CompletableFuture<Answer> reaction(Caller caller, ApiRequest request, boolean on) {
    ConvId convId = AccessControl.convId(request.pathParam("convId"));
    long seq = MessageEndpoints.seqParam(request.pathParam("seq"));
    String emoji = ActionRequests.emoji(request.pathParam("emoji"));
    target(caller, convId, seq, "reacted to");
    return noticed(roundTrip, new Commands(caller.userId(), caller.deviceId()).react(convId.value(), seq, emoji, on),
        convId, seq);
  }

  // A member's view of a client message that is stored and not recalled: 404, 409 otherwise.
  private StoredMessage target(Caller caller, ConvId convId, long seq, String what) {
    long floor = access.requireMember(caller, convId);
    StoredMessage message = messages.bySeq(convId.value(), seq).filter(found -> found.seq() > floor)
        .orElseThrow(() -> ApiException.notFound("no_such_message", "no message at seq " + seq + " in " + convId));
    if (!CLIENT_TYPES.contains(message.type())) {
      throw ApiException.conflict("not_actionable", "a " + message.type() + " message cannot be " + what);
    }
    if (message.recalled()) {
      throw ApiException.conflict("recalled", "the message at seq " + seq + " was recalled");
    }
    return message;
  }

  /** A command whose outcome is a notice about the message at seq (a recall, an edit, a reaction): 200 with it, or 202. */
  static CompletableFuture<Answer> noticed(CommandRoundTrip roundTrip, Command command, ConvId convId, long seq) {
    return roundTrip.submit(command).thenApply(result -> noticeAnswer(result, convId, seq));
  }

  /** The answer of a command about the message at seq: 200 with its notice once stored, else 202. */
  static Answer noticeAnswer(CommandRoundTrip.Result result, ConvId convId, long seq) {
    if (result instanceof CommandRoundTrip.Result.Stored stored) {
      return Answer.ok(new Views.Recalled(Views.Message.of(stored.message()), stored.duplicate()));
    }
    return Answer.json(202, new Views.RecallAccepted(convId.value(), seq, "accepted"));
  }
}
