package io.seqsync.ingress.api;

import io.seqsync.ingress.http.ApiException;
import io.seqsync.ingress.auth.Authentication;
import io.seqsync.ingress.auth.Caller;
import io.seqsync.ingress.commands.CommandRoundTrip;
import io.seqsync.ingress.http.Json;
import io.seqsync.ingress.http.MessagesRoute;

import io.javalin.http.Context;
import io.seqsync.events.Commands;
import io.seqsync.events.ConvId;
import io.seqsync.events.model.Command;
import java.util.concurrent.CompletableFuture;

/**
 * The requests that change a conversation's messages: parse the request, call the domain, give the
 * answer. Sends (and pages) are served by {@link MessagesRoute}, recalls by Javalin.
 */
public final class MessageEndpoints {
  private final int maxContentBytes;
  private final AccessControl access;
  private final CommandRoundTrip roundTrip;

  public MessageEndpoints(int maxContentBytes, AccessControl access, CommandRoundTrip roundTrip) {
    this.maxContentBytes = maxContentBytes;
    this.access = access;
    this.roundTrip = roundTrip;
  }

  /** An answer to write: its status and the view to write as JSON. */
  public record Answer(int status, Object view) {}

  /**
   * POST /v1/conversations/{convId}/messages {clientMsgId, type, content}, as {@link MessagesRoute}
   * serves it: fails at once (an {@link ApiException}) for a request that is not valid or not
   * allowed, else completes with 200 and the stored message, or 202 when it is not known to be
   * stored within the reply budget.
   */
  public CompletableFuture<Answer> send(Caller caller, String convIdText, byte[] body) {
    ConvId convId = AccessControl.convId(convIdText);
    SendRequest request = SendRequest.parse(Json.object(body), maxContentBytes);
    access.requireMember(caller, convId);
    Command command = new Commands(caller.userId(), caller.deviceId())
        .send(convId.value(), request.clientMsgId(), request.type(), request.content());
    return roundTrip.submitCompletingOnListeners(command).thenApply(result -> {
      if (result instanceof CommandRoundTrip.Result.Stored stored) {
        return new Answer(200, new Views.Sent(Views.Message.of(stored.message()), stored.duplicate()));
      }
      Long msgId = ((CommandRoundTrip.Result.Accepted) result).msgId();
      return new Answer(202, Views.Accepted.of(msgId, convId.value(), request.clientMsgId()));
    });
  }

  /** POST /v1/conversations/{convId}/messages/{seq}/recall. */
  public void recall(Context ctx) {
    Caller caller = Authentication.caller(ctx);
    ConvId convId = AccessControl.convId(ctx.pathParam("convId"));
    long seq = seqParam(ctx.pathParam("seq"));
    access.requireRecallable(caller, convId, seq);
    Command command = new Commands(caller.userId(), caller.deviceId()).recall(convId.value(), seq);
    ctx.future(() -> roundTrip.submit(command).thenAccept(result -> {
      if (result instanceof CommandRoundTrip.Result.Stored stored) {
        ctx.status(200).json(new Views.Recalled(Views.Message.of(stored.message()), stored.duplicate()));
      } else {
        ctx.status(202).json(new Views.RecallAccepted(convId.value(), seq, "accepted"));
      }
    }));
  }

  private static long seqParam(String text) {
    try {
      long seq = Long.parseLong(text);
      if (seq >= 1 && text.chars().allMatch(c -> c >= '0' && c <= '9')) {
        return seq;
      }
    } catch (NumberFormatException ignored) {
      // answered below
    }
    throw ApiException.badRequest("invalid_parameter", "seq must be a positive integer");
  }
}
