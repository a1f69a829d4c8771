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
import io.seqsync.store.ConversationQueries;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

/**
 * The handlers of groups: creation and membership changes. Both are a membership command whose
 * notice takes a seq in the group's own order; they answer once the notice is stored (or at the
 * reply budget). The rules are the sequencer's (docs/design.md), checked here first against the
 * committed projection for clear answers; the sequencer settles races.
 */
public final class GroupEndpoints {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final Base64.Encoder GROUP_ID = Base64.getUrlEncoder().withoutPadding();

  private final int maxMembers;
  private final AccessControl access;
  private final ConversationQueries conversations;
  private final CommandRoundTrip roundTrip;

  public GroupEndpoints(int maxMembers, AccessControl access, ConversationQueries conversations, CommandRoundTrip roundTrip) {
    this.maxMembers = maxMembers;
    this.access = access;
    this.conversations = conversations;
    this.roundTrip = roundTrip;
  }

  /** POST /v1/groups {name, members:[uid]}: the caller creates and owns a new group. */
  public CompletableFuture<Answer> create(Caller caller, ApiRequest http) {
    GroupRequests.Creation request = GroupRequests.creation(Json.object(http.body()), maxMembers);
    List<Long> members = GroupRequests.withFirst(caller.userId(), request.members());
    if (members.size() > maxMembers) {
      throw ApiException.tooLarge("too_many_members", "a group holds at most " + maxMembers + " members");
    }
    String convId = newGroupId();
    Command command = commands(caller).membership(convId, members, List.of(), request.name());
    return roundTrip.submit(command).thenApply(result -> {
      if (result instanceof CommandRoundTrip.Result.Stored stored) {
        return Answer.json(201, new Views.GroupCreated(convId, request.name(), Views.Message.of(stored.message()), "created"));
      }
      return Answer.json(202, new Views.GroupCreated(convId, request.name(), null, "accepted"));
    });
  }

  /** POST /v1/conversations/{convId}/members {add:[uid], remove:[uid]}. */
  public CompletableFuture<Answer> changeMembers(Caller caller, ApiRequest http) {
    ConvId convId = AccessControl.convId(http.pathParam("convId"));
    if (convId.kind() != ConvId.Kind.GROUP) {
      throw ApiException.badRequest("not_a_group", "only a group's members can change; " + convId + " is one-to-one");
    }
    GroupRequests.Change request = GroupRequests.change(Json.object(http.body()), maxMembers);
    access.requireMember(caller, convId);
    ConversationQueries.Group group = conversations.group(convId.value())
        .orElseThrow(() -> ApiException.notFound("no_such_conversation", "no conversation " + convId));
    boolean removesOthers = request.remove().stream().anyMatch(userId -> userId != caller.userId());
    if (removesOthers && (group.ownerId() == null || group.ownerId() != caller.userId())) {
      throw ApiException.forbidden("not_owner", "only the group's owner removes other members");
    }
    Set<Long> current = conversations.membersAmong(convId.value(),
        Stream.concat(request.add().stream(), request.remove().stream()).toList());
    List<Long> added = request.add().stream().filter(userId -> !current.contains(userId)).toList();
    List<Long> removed = request.remove().stream().filter(current::contains).toList();
    if (added.isEmpty() && removed.isEmpty()) {
      return CompletableFuture.completedFuture(
          Answer.json(202, Views.MembersChanged.of(convId.value(), added, removed, null, "unchanged")));
    }
    if (group.memberCount() + added.size() - removed.size() > maxMembers) {
      throw ApiException.conflict("group_full", "a group holds at most " + maxMembers + " members");
    }
    Command command = commands(caller).membership(convId.value(), added, removed, null);
    return roundTrip.submit(command).thenApply(result -> {
      Views.Message notice = result instanceof CommandRoundTrip.Result.Stored stored
          ? Views.Message.of(stored.message()) : null;
      return Answer.json(202, Views.MembersChanged.of(convId.value(), added, removed, notice,
          notice == null ? "accepted" : "applied"));
    });
  }

  private static Commands commands(Caller caller) {
    return new Commands(caller.userId(), caller.deviceId());
  }

  // 128 random bits: ids cannot collide, and the sequencer refuses to create an existing group anyway.
  private static String newGroupId() {
    byte[] bytes = new byte[16];
    RANDOM.nextBytes(bytes);
    return "g:" + GROUP_ID.encodeToString(bytes);
  }
}
