package io.seqsync.sequencer;

import static io.seqsync.sequencer.SequencerStores.key;

import io.seqsync.events.model.ChangeGroupSettings;
import io.seqsync.events.model.ChangeMembership;
import io.seqsync.events.model.RejectReason;
import io.seqsync.events.model.RoleChange;
import io.seqsync.events.model.SetGroupRole;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The authoritative rules of groups, decided in the conversation's own order: the ingress checks
 * the committed projection first for clear answers, and this settles the races (a send that
 * arrives after its sender's removal is rejected here). The rules (docs/design.md, "Groups"): the
 * creator is the owner; the owner and admins add and remove members, and any member adds when the
 * group's {@code membersCanInvite} is on; nobody removes the owner, and only the owner removes an
 * admin; everyone may leave; only the owner gives roles, and naming another member owner makes
 * the caller an admin; an owner who leaves passes ownership to the oldest admin, else the oldest
 * member (oldest: the earliest joining notice, then the lowest user id); a group holds at most
 * {@code maxMembers}. A command that changes nothing is rejected. One per stream task.
 */
final class GroupRules {
  static final String OWNER = "owner";
  static final String ADMIN = "admin";
  static final String MEMBER = "member";

  private final StateTable<GroupState> groups;
  private final StateTable<Long> members;
  private final StateTable<Long> admins;
  private final int maxMembers;

  GroupRules(StateTable<GroupState> groups, StateTable<Long> members, StateTable<Long> admins, int maxMembers) {
    this.groups = groups;
    this.members = members;
    this.admins = admins;
    this.maxMembers = maxMembers;
  }

  boolean isMember(String convId, long userId) {
    return members.get(key(convId, userId)) != null;
  }

  /** The effect of {@code change} asked by {@code callerId}; creates the group when it names one. */
  GroupDecision membership(String convId, long callerId, ChangeMembership change) {
    GroupState group = groups.get(convId);
    if (change.getGroupName() != null) {
      return create(group, callerId, change);
    }
    GroupDecision refused = requireMember(group, convId, callerId);
    if (refused != null) {
      return refused;
    }
    boolean manages = manages(group, convId, callerId);
    if (!change.getAdd().isEmpty() && !manages && !group.membersCanInvite()) {
      return GroupDecision.reject(RejectReason.NOT_ADMIN, "only the group's owner and admins add members");
    }
    List<Long> added = distinct(change.getAdd()).stream().filter(userId -> !isMember(convId, userId)).toList();
    List<Long> removed = distinct(change.getRemove()).stream().filter(userId -> isMember(convId, userId)).toList();
    for (long userId : removed) {
      if (userId == callerId) {
        continue;
      }
      if (!manages) {
        return GroupDecision.reject(RejectReason.NOT_ADMIN, "only the group's owner and admins remove other members");
      }
      if (userId == group.ownerId() || (callerId != group.ownerId() && isAdmin(convId, userId))) {
        return GroupDecision.reject(RejectReason.NOT_OWNER, "only the group's owner removes an admin, and nobody the owner");
      }
    }
    if (added.isEmpty() && removed.isEmpty()) {
      return GroupDecision.reject(RejectReason.INVALID_COMMAND, "the membership change changes nobody");
    }
    if (group.memberCount() + added.size() - removed.size() > maxMembers) {
      return GroupDecision.reject(RejectReason.NOT_ALLOWED, "a group holds at most " + maxMembers + " members");
    }
    List<RoleChange> roles = removed.contains(group.ownerId())
        ? successor(convId, removed, added).map(owner -> List.of(new RoleChange(owner, OWNER))).orElse(List.of())
        : List.of();
    return GroupDecision.members(added, removed, roles);
  }

  /** The effect of the owner giving a member a role. */
  GroupDecision role(String convId, long callerId, SetGroupRole change) {
    GroupState group = groups.get(convId);
    GroupDecision refused = requireMember(group, convId, callerId);
    if (refused != null) {
      return refused;
    }
    if (callerId != group.ownerId()) {
      return GroupDecision.reject(RejectReason.NOT_OWNER, "only the group's owner gives roles");
    }
    long target = change.getUserId();
    if (!isMember(convId, target)) {
      return GroupDecision.reject(RejectReason.INVALID_COMMAND, "user " + target + " is no member of the group");
    }
    if (target == callerId) {
      return GroupDecision.reject(RejectReason.INVALID_COMMAND,
          "the owner passes ownership by naming another member owner");
    }
    String current = isAdmin(convId, target) ? ADMIN : MEMBER;
    if (current.equals(change.getRole())) {
      return GroupDecision.reject(RejectReason.INVALID_COMMAND, "user " + target + " is " + current + " already");
    }
    return GroupDecision.roles(OWNER.equals(change.getRole())
        ? List.of(new RoleChange(target, OWNER), new RoleChange(callerId, ADMIN))
        : List.of(new RoleChange(target, change.getRole())));
  }

  /** The effect of the owner or an admin changing the group's settings. */
  GroupDecision settings(String convId, long callerId, ChangeGroupSettings change) {
    GroupState group = groups.get(convId);
    GroupDecision refused = requireMember(group, convId, callerId);
    if (refused != null) {
      return refused;
    }
    if (!manages(group, convId, callerId)) {
      return GroupDecision.reject(RejectReason.NOT_ADMIN, "only the group's owner and admins change its settings");
    }
    if (change.getMembersCanInvite() == null || change.getMembersCanInvite() == group.membersCanInvite()) {
      return GroupDecision.reject(RejectReason.INVALID_COMMAND, "the settings change changes nothing");
    }
    return GroupDecision.settings(change.getMembersCanInvite());
  }

  /** Stores a decided change whose notice got {@code noticeSeq}. */
  void apply(String convId, long callerId, GroupDecision decision, long noticeSeq) {
    GroupState before = groups.get(convId);
    GroupState group = before == null ? new GroupState(callerId, 0, false) : before;
    long owner = group.ownerId();
    decision.added().forEach(userId -> members.put(key(convId, userId), noticeSeq));
    for (long userId : decision.removed()) {
      members.delete(key(convId, userId));
      admins.delete(key(convId, userId));
    }
    if (decision.removed().contains(owner)) {
      owner = 0; // the last member left, unless a role change below names the successor
    }
    for (RoleChange change : decision.roles()) {
      String userKey = key(convId, change.getUserId());
      switch (change.getRole()) {
        case OWNER -> {
          owner = change.getUserId();
          admins.delete(userKey);
        }
        case ADMIN -> admins.put(userKey, noticeSeq);
        default -> admins.delete(userKey);
      }
    }
    int count = group.memberCount() + decision.added().size() - decision.removed().size();
    boolean invite = decision.membersCanInvite() == null ? group.membersCanInvite() : decision.membersCanInvite();
    groups.put(convId, new GroupState(owner, count, invite));
  }

  private GroupDecision create(GroupState existing, long callerId, ChangeMembership change) {
    if (existing != null) {
      return GroupDecision.reject(RejectReason.INVALID_COMMAND, "the group exists already");
    }
    if (!change.getRemove().isEmpty()) {
      return GroupDecision.reject(RejectReason.INVALID_COMMAND, "creating a group removes nobody");
    }
    List<Long> added = new ArrayList<>();
    added.add(callerId);
    distinct(change.getAdd()).stream().filter(userId -> userId != callerId).forEach(added::add);
    if (added.size() > maxMembers) {
      return GroupDecision.reject(RejectReason.NOT_ALLOWED, "a group holds at most " + maxMembers + " members");
    }
    return GroupDecision.members(added, List.of(), List.of());
  }

  private GroupDecision requireMember(GroupState group, String convId, long callerId) {
    if (group == null) {
      return GroupDecision.reject(RejectReason.INVALID_COMMAND, "no such group " + convId);
    }
    if (!isMember(convId, callerId)) {
      return GroupDecision.reject(RejectReason.NOT_ALLOWED, "not a member of the group");
    }
    return null;
  }

  private boolean manages(GroupState group, String convId, long userId) {
    return group.ownerId() == userId || isAdmin(convId, userId);
  }

  private boolean isAdmin(String convId, long userId) {
    return admins.get(key(convId, userId)) != null;
  }

  /**
   * Who takes over from a leaving owner: the oldest remaining admin, else the oldest remaining
   * member, else the oldest of those the same change adds; empty when nobody is left. Reads every
   * member of the group: only when its owner leaves.
   */
  private Optional<Long> successor(String convId, Collection<Long> leaving, List<Long> joining) {
    String prefix = key(convId, "");
    Set<Long> adminIds = new LinkedHashSet<>();
    admins.withKeyPrefix(prefix).forEach(entry -> adminIds.add(userIdOf(entry.getKey(), prefix)));
    Comparator<Map.Entry<Long, Long>> oldest =
        Map.Entry.<Long, Long>comparingByValue().thenComparing(Map.Entry.comparingByKey());
    List<Map.Entry<Long, Long>> remaining = members.withKeyPrefix(prefix).stream()
        .map(entry -> Map.entry(userIdOf(entry.getKey(), prefix), entry.getValue()))
        .filter(entry -> !leaving.contains(entry.getKey()))
        .sorted(oldest)
        .toList();
    return remaining.stream().filter(entry -> adminIds.contains(entry.getKey())).findFirst()
        .or(() -> remaining.stream().findFirst())
        .map(Map.Entry::getKey)
        .or(() -> joining.stream().min(Long::compare));
  }

  private static long userIdOf(String storeKey, String prefix) {
    return Long.parseLong(storeKey.substring(prefix.length()));
  }

  private static Set<Long> distinct(List<Long> userIds) {
    return new LinkedHashSet<>(userIds);
  }
}
