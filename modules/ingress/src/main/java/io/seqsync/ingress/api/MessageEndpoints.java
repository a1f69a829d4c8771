package io.seqsync.ingress.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.seqsync.events.Commands;
import io.seqsync.events.ConvId;
import io.seqsync.events.model.Attachment;
import io.seqsync.events.model.Command;
import io.seqsync.ingress.attachments.SendAttachments;
import io.seqsync.ingress.auth.Caller;
import io.seqsync.ingress.commands.CommandPublisher;
import io.seqsync.ingress.commands.CommandRoundTrip;
import io.seqsync.ingress.http.Answer;
import io.seqsync.ingress.http.ApiException;
import io.seqsync.ingress.http.ApiRequest;
import io.seqsync.ingress.http.Json;
import io.seqsync.store.StoredMessage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletableFuture;

/**
 * A conversation's messages: a page, a send, a recall. Pages and sends are the hottest requests
 * there are and are served by the Jetty fast path; recalls by Javalin.
 */
public final class MessageEndpoints {
  /** The path of pages and sends. */
  public static final String MESSAGES = "/v1/conversations/{convId}/messages";

  private final int maxContentBytes;
  private final AccessControl access;
  private final CommandRoundTrip roundTrip;
  private final CommandPublisher publisher;
  private final FetchGuard guard;
  private final FetchService fetches;
  private final SendAttachments attachments;

  public MessageEndpoints(int maxContentBytes, AccessControl access, CommandRoundTrip roundTrip,
      CommandPublisher publisher, FetchGuard guard, FetchService fetches, SendAttachments attachments) {
    this.attachments = attachments;
    this.maxContentBytes = maxContentBytes;
    this.access = access;
    this.roundTrip = roundTrip;
    this.publisher = publisher;
    this.guard = guard;
    this.fetches = fetches;
  }

  /**
   * GET /v1/conversations/{convId}/messages: 400 for an invalid id or query before the device's
   * bucket or a lane is taken, then the fetch guard (the bucket, then the lane of the page's mode),
   * membership, the page as {@link FetchedJson} writes it.
   */
  public CompletableFuture<Answer> page(Caller caller, ApiRequest request) {
    ConvId convId = AccessControl.convId(request.pathParam("convId"));
    FetchRequest fetch = FetchRequest.parse(request.queryParams());
    try (Lane.Permit running = guard.admitPage(caller, fetch.mode())) {
      long floor = access.requireMember(caller, convId);
      Views.Fetched page = fetches.fetch(caller, convId, fetch, floor);
      ByteArrayOutputStream body = new ByteArrayOutputStream(16 * 1024);
      FetchedJson.write(page, body);
      return CompletableFuture.completedFuture(Answer.jsonBytes(200, body.toByteArray()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * POST /v1/conversations/{convId}/messages {clientMsgId, type, content}: fails at once (an
   * {@link ApiException}) for a request that is not valid or not allowed, else completes with 200
   * and the stored message, or 202 when it is not known to be stored within the reply budget; with
   * {@code Prefer: respond-async}, 202 as soon as Kafka has the command (a client sending a
   * conversation's messages one at a time need not wait for each one's seq). Completes on the
   * thread that brings the outcome: the answer is rendered there and written without blocking.
   */
  public CompletableFuture<Answer> send(Caller caller, ApiRequest request) {
    // The body first: one that cannot be read (over the size limit) is refused before its path.
    byte[] body = request.body();
    ConvId convId = AccessControl.convId(request.pathParam("convId"));
    ObjectNode fields = Json.object(body);
    SendRequest send = SendRequest.parse(fields, maxContentBytes);
    Attachment attachment = attachments.of(caller.userId(), send.type(), fields);
    access.requireMember(caller, convId);
    Command command = new Commands(caller.userId(), caller.deviceId())
        .send(convId.value(), send.clientMsgId(), send.type(), send.content(), attachment, send.actions().replyTo(),
            send.actions().mentions());
    CompletableFuture<CommandRoundTrip.Result> submitted = respondAsync(request.header("Prefer"))
        ? roundTrip.submitAccepted(command) : roundTrip.submitCompletingOnListeners(command);
    return submitted.thenApply(result -> {
      if (result instanceof CommandRoundTrip.Result.Stored stored) {
        return Answer.ok(new Views.Sent(Views.Message.of(stored.message()), stored.duplicate()));
      }
      Long msgId = ((CommandRoundTrip.Result.Accepted) result).msgId();
      return Answer.json(202, Views.Accepted.of(msgId, convId.value(), send.clientMsgId()));
    });
  }

  // RFC 7240: a list of preferences, each a token with optional parameters.
  private static boolean respondAsync(String prefer) {
    if (prefer == null) {
      return false;
    }
    for (String preference : prefer.split(",")) {
      if (preference.split(";", 2)[0].strip().equalsIgnoreCase("respond-async")) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a send to {@code convIdText} can be served without blocking: a direct conversation
   * needs no database (its id names both members), and its produce cannot wait while
   * {@link CommandPublisher#publishesWithoutBlocking} holds.
   */
  public boolean sendsWithoutBlocking(String convIdText) {
    return ConvId.parse(convIdText).map(id -> id.kind() == ConvId.Kind.DIRECT).orElse(false)
        && publisher.publishesWithoutBlocking();
  }

  /** POST /v1/conversations/{convId}/messages/{seq}/recall: a stored recall deletes the message's object. */
  public CompletableFuture<Answer> recall(Caller caller, ApiRequest request) {
    ConvId convId = AccessControl.convId(request.pathParam("convId"));
    long seq = seqParam(request.pathParam("seq"));
    StoredMessage recalled = access.requireRecallable(caller, convId, seq);
    Command command = new Commands(caller.userId(), caller.deviceId()).recall(convId.value(), seq);
    // Once the recall is stored its object goes too (docs/design.md, "Erasure").
    return roundTrip.submit(command).thenApply(result -> {
      if (result instanceof CommandRoundTrip.Result.Stored) {
        attachments.recalled(recalled);
      }
      return ActionEndpoints.noticeAnswer(result, convId, seq);
    });
  }

  /** A seq path parameter: a positive integer, else a 400. */
  public static long seqParam(String text) {
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
