package io.seqsync.ingress.api;

import io.seqsync.events.Commands;
import io.seqsync.events.model.Command;
import io.seqsync.ingress.auth.Caller;
import io.seqsync.ingress.commands.CommandRoundTrip;
import io.seqsync.ingress.http.Answer;
import io.seqsync.ingress.http.ApiException;
import io.seqsync.ingress.http.ApiRequest;
import io.seqsync.ingress.http.Json;
import io.seqsync.store.ConversationQueries;
import io.seqsync.store.GroupQueries;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

/**
 * The handlers of groups: creation, membership changes and leaving. Each is a membership command
 * whose notice takes a seq in the group's own order; they answer once the notice is stored (or at
 * the reply budget). The rules are the sequencer's (docs/design.md, "Groups"), checked here first
 * against the committed projection for clear answers; the sequencer settles races.
 */
public final class GroupEndpoints {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final Base64.Encoder GROUP_ID = Base64.getUrlEncoder().withoutPadding();

  private final int maxMembers;
  private final GroupChecks checks;
  private final ConversationQueries conversations;
  private final CommandRoundTrip roundTrip;

  public GroupEndpoints(int maxMembers, GroupChecks checks, ConversationQueries conversations, CommandRoundTrip roundTrip) {
    this.maxMembers = maxMembers;
    this.checks = checks;
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
    checks.requireFewAdded(members.subList(1, members.size()));
    checks.requireJoinable(caller.userId(), members);
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
    GroupRequests.Change request = GroupRequests.change(Json.object(http.body()), maxMembers);
    GroupChecks.Member member = checks.member(caller, http);
    checks.requireFewAdded(request.add());
    return change(caller, member, request.add(), request.remove());
  }

  /** POST /v1/conversations/{convId}/leave: the caller leaves the group (as {@code remove:[self]}). */
  public CompletableFuture<Answer> leave(Caller caller, ApiRequest http) {
    return change(caller, checks.member(caller, http), Set.of(), Set.of(caller.userId()));
  }

  private CompletableFuture<Answer> change(Caller caller, GroupChecks.Member member, Set<Long> add, Set<Long> remove) {
    String convId = member.convId();
    Set<Long> current = conversations.membersAmong(convId, Stream.concat(add.stream(), remove.stream()).toList());
    List<Long> added = add.stream().filter(userId -> !current.contains(userId)).toList();
    List<Long> removed = remove.stream().filter(current::contains).toList();
    requireAllowed(caller.userId(), member.group(), add, removed);
    if (added.isEmpty() && removed.isEmpty()) {
      return CompletableFuture.completedFuture(
          Answer.json(202, Views.MembersChanged.of(convId, added, removed, null, "unchanged")));
    }
    if (member.group().memberCount() + added.size() - removed.size() > maxMembers) {
      throw ApiException.conflict("group_full", "a group holds at most " + maxMembers + " members");
    }
    if (!added.isEmpty()) {
      checks.requireJoinable(caller.userId(), added);
    }
    Command command = commands(caller).membership(convId, added, removed, null);
    return checks.notice(command).thenApply(notice ->
        Answer.json(202, Views.MembersChanged.of(convId, added, removed, notice, GroupChecks.status(notice))));
  }

  // The owner and admins add and remove; any member adds where the group lets members invite;
  // nobody removes the owner, only the owner removes an admin; anyone removes themselves. As the
  // sequencer decides: adding by who asks, removing by the members actually removed.
  private static void requireAllowed(long callerId, GroupQueries.Group group, Set<Long> add, List<Long> remove) {
    boolean manages = group.managedBy(callerId);
    if (!add.isEmpty() && !manages && !group.membersCanInvite()) {
      throw ApiException.forbidden("not_admin", "only the group's owner and admins add members");
    }
    for (long userId : remove) {
      if (userId == callerId) {
        continue;
      }
      if (!manages) {
        throw ApiException.forbidden("not_admin", "only the group's owner and admins remove other members");
      }
      String role = group.roleOf(userId);
      boolean callerOwns = group.roleOf(callerId).equals(GroupQueries.OWNER);
      if (role.equals(GroupQueries.OWNER) || (role.equals(GroupQueries.ADMIN) && !callerOwns)) {
        throw ApiException.forbidden("not_owner", "only the group's owner removes an admin, and nobody the owner");
      }
    }
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
