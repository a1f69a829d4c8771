package io.seqsync.ingress.api;

import io.seqsync.events.Commands;
import io.seqsync.events.ConvId;
import io.seqsync.events.model.Command;
import io.seqsync.ingress.auth.Caller;
import io.seqsync.ingress.commands.CommandPublisher;
import io.seqsync.ingress.commands.Unpublished;
import io.seqsync.ingress.http.Answer;
import io.seqsync.ingress.http.ApiRequest;
import io.seqsync.ingress.http.Json;
import io.seqsync.store.ConversationQueries;
import io.seqsync.store.GroupQueries;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The handlers of where a device and a user stand in conversations: activation (R14), acks (R11,
 * R12), read reports (R18) and drafts (R21). Position commands answer 202 once Kafka has them all
 * (durably accepted); the sequencer moves positions forward only, so a stale or too-far one is
 * harmless and never an error.
 */
public final class PositionEndpoints {
  private final int maxDraftBytes;
  private final AccessControl access;
  private final CommandPublisher publisher;
  private final ConversationQueries conversations;
  private final GroupQueries groups;

  public PositionEndpoints(int maxDraftBytes, AccessControl access, CommandPublisher publisher,
      ConversationQueries conversations, GroupQueries groups) {
    this.maxDraftBytes = maxDraftBytes;
    this.access = access;
    this.publisher = publisher;
    this.conversations = conversations;
    this.groups = groups;
  }

  /** GET /v1/conversations/{convId}. */
  public Answer activation(Caller caller, ApiRequest request) {
    ConvId convId = AccessControl.convId(request.pathParam("convId"));
    access.requireMember(caller, convId);
    GroupQueries.Group group = convId.kind() == ConvId.Kind.GROUP ? groups.group(convId.value()).orElse(null) : null;
    return Answer.ok(Views.Activation.of(conversations.activation(caller.userId(), caller.deviceId(), convId), group));
  }

  /** POST /v1/acks {acks:[{convId, seq}]}: one AckCursor command per item, keyed by its convId. */
  public CompletableFuture<Answer> acks(Caller caller, ApiRequest request) {
    List<PositionRequests.Position> acks = PositionRequests.acks(Json.object(request.body()));
    new LinkedHashSet<>(acks.stream().map(PositionRequests.Position::convId).toList())
        .forEach(convId -> access.requireMember(caller, convId));
    Commands commands = commands(caller);
    return accept(acks.stream().map(ack -> commands.ack(ack.convId().value(), ack.seq())).toList());
  }

  /** POST /v1/reads {convId, seq}. */
  public CompletableFuture<Answer> read(Caller caller, ApiRequest request) {
    PositionRequests.Position read = PositionRequests.read(Json.object(request.body()));
    access.requireMember(caller, read.convId());
    return accept(List.of(commands(caller).read(read.convId().value(), read.seq())));
  }

  /** PUT /v1/conversations/{convId}/draft {text}. */
  public CompletableFuture<Answer> draft(Caller caller, ApiRequest request) {
    return write(draftCommand(caller, request));
  }

  /** The draft command of a valid PUT of a draft by a member, else the 4xx. */
  Command draftCommand(Caller caller, ApiRequest request) {
    ConvId convId = AccessControl.convId(request.pathParam("convId"));
    String text = PositionRequests.draft(Json.object(request.body()), maxDraftBytes);
    access.requireMember(caller, convId);
    return commands(caller).draft(convId.value(), text);
  }

  /** 202 once Kafka has {@code command}. */
  CompletableFuture<Answer> write(Command command) {
    return accept(List.of(command));
  }

  private static Commands commands(Caller caller) {
    return new Commands(caller.userId(), caller.deviceId());
  }

  private CompletableFuture<Answer> accept(List<Command> commands) {
    return answerWhenDurable(commands.stream().map(publisher::publish).toList(),
        "not every command could be written to Kafka; retry (positions only move forward)");
  }

  /**
   * 202 once the broker acknowledged every record of {@code published} (acks=all): then none of
   * them can be lost; a 503 saying {@code retryHint} when one failed. For delivery reports too.
   */
  static CompletableFuture<Answer> answerWhenDurable(List<? extends CompletableFuture<?>> published, String retryHint) {
    return CompletableFuture.allOf(published.toArray(CompletableFuture[]::new)).handle((done, error) -> {
      if (error != null) {
        throw new CompletionException(Unpublished.unavailable(error, retryHint));
      }
      return Answer.json(202, new Views.PositionsAccepted(published.size(), "accepted"));
    });
  }
}
