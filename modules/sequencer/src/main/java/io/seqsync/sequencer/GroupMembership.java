package io.seqsync.sequencer;

import static io.seqsync.sequencer.SequencerStores.key;

import io.seqsync.events.model.ChangeMembership;
import io.seqsync.events.model.RejectReason;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The authoritative membership of groups, decided in the conversation's own order: the ingress
 * checks the committed projection first for clear answers, and this settles the races (a send
 * that arrives after its sender's removal is rejected here). The rules (docs/design.md): the
 * creator is the owner and a member; any member may add users and may leave; only the owner
 * removes others; a group holds at most {@code maxMembers}. Adding a member or removing a
 * non-member changes nothing; a change that changes nobody is rejected. One per stream task.
 */
final class GroupMembership {
  /** What a membership command does: the effective change, or why it is rejected. */
  record Decision(List<Long> added, List<Long> removed, RejectReason rejectReason, String rejectDetail) {
    static Decision reject(RejectReason reason, String detail) {
      return new Decision(List.of(), List.of(), reason, detail);
    }

    boolean rejected() {
      return rejectReason != null;
    }
  }

  private final StateTable<GroupState> groups;
  private final StateTable<Long> members;
  private final int maxMembers;

  GroupMembership(StateTable<GroupState> groups, StateTable<Long> members, int maxMembers) {
    this.groups = groups;
    this.members = members;
    this.maxMembers = maxMembers;
  }

  boolean isMember(String convId, long userId) {
    return members.get(key(convId, userId)) != null;
  }

  /** The effect of {@code change} asked by {@code callerId}; creates the group when it names one. */
  Decision decide(String convId, long callerId, ChangeMembership change) {
    GroupState group = groups.get(convId);
    if (change.getGroupName() != null) {
      return create(group, callerId, change);
    }
    if (group == null) {
      return Decision.reject(RejectReason.INVALID_COMMAND, "no such group " + convId);
    }
    if (!isMember(convId, callerId)) {
      return Decision.reject(RejectReason.NOT_ALLOWED, "not a member of the group");
    }
    boolean removesOthers = change.getRemove().stream().anyMatch(userId -> userId != callerId);
    if (removesOthers && group.ownerId() != callerId) {
      return Decision.reject(RejectReason.NOT_ALLOWED, "only the group's owner removes other members");
    }
    List<Long> added = distinct(change.getAdd()).stream().filter(userId -> !isMember(convId, userId)).toList();
    List<Long> removed = distinct(change.getRemove()).stream().filter(userId -> isMember(convId, userId)).toList();
    if (added.isEmpty() && removed.isEmpty()) {
      return Decision.reject(RejectReason.INVALID_COMMAND, "the membership change changes nobody");
    }
    if (group.memberCount() + added.size() - removed.size() > maxMembers) {
      return Decision.reject(RejectReason.NOT_ALLOWED, "a group holds at most " + maxMembers + " members");
    }
    return new Decision(added, removed, null, null);
  }

  /** Stores a decided change whose notice got {@code noticeSeq}. */
  void apply(String convId, long callerId, Decision decision, long noticeSeq) {
    GroupState group = groups.get(convId);
    long owner = group == null ? callerId : group.ownerId();
    int count = group == null ? 0 : group.memberCount();
    decision.added().forEach(userId -> members.put(key(convId, userId), noticeSeq));
    decision.removed().forEach(userId -> members.delete(key(convId, userId)));
    groups.put(convId, new GroupState(owner, count + decision.added().size() - decision.removed().size()));
  }

  private Decision create(GroupState existing, long callerId, ChangeMembership change) {
    if (existing != null) {
      return Decision.reject(RejectReason.INVALID_COMMAND, "the group exists already");
    }
    if (!change.getRemove().isEmpty()) {
      return Decision.reject(RejectReason.INVALID_COMMAND, "creating a group removes nobody");
    }
    List<Long> added = new ArrayList<>();
    added.add(callerId);
    distinct(change.getAdd()).stream().filter(userId -> userId != callerId).forEach(added::add);
    if (added.size() > maxMembers) {
      return Decision.reject(RejectReason.NOT_ALLOWED, "a group holds at most " + maxMembers + " members");
    }
    return new Decision(added, List.of(), null, null);
  }

  private static Set<Long> distinct(List<Long> userIds) {
    return new LinkedHashSet<>(userIds);
  }
}
