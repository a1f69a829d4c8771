package io.seqsync.ingress.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.seqsync.events.Commands;
import io.seqsync.events.UserIds;
import io.seqsync.ingress.auth.Caller;
import io.seqsync.ingress.http.Answer;
import io.seqsync.ingress.http.ApiException;
import io.seqsync.ingress.http.ApiRequest;
import io.seqsync.ingress.http.Json;
import io.seqsync.store.ConversationQueries;
import io.seqsync.store.GroupQueries;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The handlers of a group's roles and settings: the owner gives roles (naming another member owner
 * passes ownership on), the owner and admins change settings. Each is a command whose notice
 * takes a seq in the group's order, answered like a membership change; checked first against the
 * committed projection, decided by the sequencer.
 */
public final class GroupRoleEndpoints {
  private static final Set<String> ROLES = Set.of(GroupQueries.OWNER, GroupQueries.ADMIN, GroupQueries.MEMBER);

  private final GroupChecks checks;
  private final ConversationQueries conversations;

  public GroupRoleEndpoints(GroupChecks checks, ConversationQueries conversations) {
    this.checks = checks;
    this.conversations = conversations;
  }

  /** PUT /v1/conversations/{convId}/roles/{userId} {role}: owner, admin or member. */
  public CompletableFuture<Answer> role(Caller caller, ApiRequest http) {
    ObjectNode body = Json.object(http.body());
    String role = Json.string(body, "role");
    if (!ROLES.contains(role)) {
      throw ApiException.badRequest("invalid_field", "role must be owner, admin or member");
    }
    long userId = UserIds.parse(http.pathParam("userId")).orElseThrow(() ->
        ApiException.badRequest("invalid_parameter", "userId must be a user id (a positive 64-bit decimal string)"));
    GroupChecks.Member member = checks.member(caller, http);
    GroupQueries.Group group = member.group();
    if (!group.roleOf(caller.userId()).equals(GroupQueries.OWNER)) {
      throw ApiException.forbidden("not_owner", "only the group's owner gives roles");
    }
    if (conversations.membersAmong(member.convId(), List.of(userId)).isEmpty()) {
      throw ApiException.notFound("no_such_member", "user " + userId + " is not a member of " + member.convId());
    }
    if (group.roleOf(userId).equals(role)) {
      return CompletableFuture.completedFuture(
          Answer.json(202, new Views.RoleChanged(member.convId(), Long.toString(userId), role, null, "unchanged")));
    }
    if (userId == caller.userId()) {
      throw ApiException.badRequest("invalid_field", "the owner passes ownership by naming another member owner");
    }
    return checks.notice(commands(caller).role(member.convId(), userId, role)).thenApply(notice -> Answer.json(202,
        new Views.RoleChanged(member.convId(), Long.toString(userId), role, notice, GroupChecks.status(notice))));
  }

  /** PUT /v1/conversations/{convId}/settings {membersCanInvite}. */
  public CompletableFuture<Answer> settings(Caller caller, ApiRequest http) {
    ObjectNode body = Json.object(http.body());
    JsonNode invite = body.get("membersCanInvite");
    if (invite == null || !invite.isBoolean()) {
      throw ApiException.badRequest("invalid_field", "membersCanInvite must be true or false");
    }
    boolean membersCanInvite = invite.booleanValue();
    GroupChecks.Member member = checks.member(caller, http);
    if (!member.group().managedBy(caller.userId())) {
      throw ApiException.forbidden("not_admin", "only the group's owner and admins change its settings");
    }
    Views.Settings settings = new Views.Settings(membersCanInvite);
    if (member.group().membersCanInvite() == membersCanInvite) {
      return CompletableFuture.completedFuture(
          Answer.json(202, new Views.SettingsChanged(member.convId(), settings, null, "unchanged")));
    }
    return checks.notice(commands(caller).settings(member.convId(), membersCanInvite)).thenApply(notice ->
        Answer.json(202, new Views.SettingsChanged(member.convId(), settings, notice, GroupChecks.status(notice))));
  }

  private static Commands commands(Caller caller) {
    return new Commands(caller.userId(), caller.deviceId());
  }
}
