package io.seqsync.ingress.api;

import io.seqsync.config.GroupsSettings;
import io.seqsync.events.ConvId;
import io.seqsync.events.model.Command;
import io.seqsync.ingress.auth.Caller;
import io.seqsync.ingress.commands.CommandRoundTrip;
import io.seqsync.ingress.http.ApiException;
import io.seqsync.ingress.http.ApiRequest;
import io.seqsync.store.GroupQueries;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The checks of group requests against the committed projection, for clear answers before a
 * command is produced (the sequencer decides the rules exactly, in the group's order), and the
 * round trip of a command whose notice takes a seq. Thread-safe.
 */
public final class GroupChecks {
  private final GroupsSettings limits;
  private final AccessControl access;
  private final GroupQueries groups;
  private final CommandRoundTrip roundTrip;

  public GroupChecks(GroupsSettings limits, AccessControl access, GroupQueries groups, CommandRoundTrip roundTrip) {
    this.limits = limits;
    this.access = access;
    this.groups = groups;
    this.roundTrip = roundTrip;
  }

  /** The group of the path's convId, of which the caller must be a member: 400, 403 or 404 otherwise. */
  Member member(Caller caller, ApiRequest http) {
    ConvId convId = AccessControl.convId(http.pathParam("convId"));
    if (convId.kind() != ConvId.Kind.GROUP) {
      throw ApiException.badRequest("not_a_group", "only a group has members and roles; " + convId + " is one-to-one");
    }
    access.requireMember(caller, convId);
    GroupQueries.Group group = groups.group(convId.value())
        .orElseThrow(() -> ApiException.notFound("no_such_conversation", "no conversation " + convId));
    return new Member(convId.value(), group);
  }

  /** A group and its committed state, as a member sees it. */
  record Member(String convId, GroupQueries.Group group) {}

  /** At most {@code groups.max-added-per-request} users added by one request: 413 beyond. */
  void requireFewAdded(Collection<Long> added) {
    if (added.size() > limits.maxAddedPerRequest()) {
      throw ApiException.tooLarge("too_many_members",
          "a request adds at most " + limits.maxAddedPerRequest() + " users, not " + added.size());
    }
  }

  /**
   * {@code userIds} may join a group {@code callerId} makes them join: none blocked the caller
   * (403 {@code blocked}) and none is in {@code groups.max-per-user} groups already (409
   * {@code too_many_groups}).
   */
  void requireJoinable(long callerId, Collection<Long> userIds) {
    Set<Long> blockers = groups.blockersAmong(callerId, userIds);
    if (!blockers.isEmpty()) {
      throw ApiException.forbidden("blocked", "user " + blockers.iterator().next() + " blocked you");
    }
    int cap = limits.maxPerUser();
    for (Map.Entry<Long, Integer> count : groups.groupCounts(userIds, cap).entrySet()) {
      if (count.getValue() >= cap) {
        throw ApiException.conflict("too_many_groups",
            "user " + count.getKey() + " is in " + cap + " groups, the most a user may be in");
      }
    }
  }

  /** Submits {@code command}; completes with its stored notice, or null when not stored within the reply budget. */
  CompletableFuture<Views.Message> notice(Command command) {
    return roundTrip.submit(command).thenApply(result -> result instanceof CommandRoundTrip.Result.Stored stored
        ? Views.Message.of(stored.message()) : null);
  }

  static String status(Views.Message notice) {
    return notice == null ? "accepted" : "applied";
  }
}
