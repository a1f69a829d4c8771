package io.seqsync.sequencer;

import io.seqsync.events.model.RejectReason;
import io.seqsync.events.model.RoleChange;
import java.util.List;

/**
 * What a group command does: the members it adds and removes, the roles it moves, the setting it
 * changes (null: unchanged), or why it is rejected. Immutable.
 */
record GroupDecision(List<Long> added, List<Long> removed, List<RoleChange> roles, Boolean membersCanInvite,
    RejectReason rejectReason, String rejectDetail) {
  static GroupDecision reject(RejectReason reason, String detail) {
    return new GroupDecision(List.of(), List.of(), List.of(), null, reason, detail);
  }

  static GroupDecision members(List<Long> added, List<Long> removed, List<RoleChange> roles) {
    return new GroupDecision(added, removed, roles, null, null, null);
  }

  static GroupDecision roles(List<RoleChange> roles) {
    return new GroupDecision(List.of(), List.of(), roles, null, null, null);
  }

  static GroupDecision settings(boolean membersCanInvite) {
    return new GroupDecision(List.of(), List.of(), List.of(), membersCanInvite, null, null);
  }

  boolean rejected() {
    return rejectReason != null;
  }
}
