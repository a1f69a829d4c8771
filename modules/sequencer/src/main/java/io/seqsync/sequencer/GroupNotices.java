package io.seqsync.sequencer;

import io.seqsync.events.model.ChangeMembership;
import io.seqsync.events.model.RoleChange;
import io.seqsync.events.model.SetGroupRole;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The content of a group's SYSTEM notices, JSON that clients render: {@code membership} (added,
 * removed, and the new owner's role when ownership passed), {@code roles} and {@code settings},
 * each naming who caused it ({@code by}). User ids are strings, as everywhere in the API.
 */
final class GroupNotices {
  private GroupNotices() {}

  static String content(long callerId, Object payload, GroupDecision decision) {
    String by = "{\"event\":\"%s\",\"by\":\"" + callerId + "\"";
    if (payload instanceof ChangeMembership) {
      String roles = decision.roles().isEmpty() ? "" : ",\"roles\":" + roles(decision.roles());
      return by.formatted("membership") + ",\"added\":" + ids(decision.added()) + ",\"removed\":"
          + ids(decision.removed()) + roles + "}";
    }
    if (payload instanceof SetGroupRole) {
      return by.formatted("roles") + ",\"roles\":" + roles(decision.roles()) + "}";
    }
    return by.formatted("settings") + ",\"settings\":{\"membersCanInvite\":" + decision.membersCanInvite() + "}}";
  }

  private static String ids(List<Long> ids) {
    return ids.stream().map(id -> "\"" + id + "\"").collect(Collectors.joining(",", "[", "]"));
  }

  private static String roles(List<RoleChange> changes) {
    return changes.stream().map(change -> "\"" + change.getUserId() + "\":\"" + change.getRole() + "\"")
        .collect(Collectors.joining(",", "{", "}"));
  }
}
