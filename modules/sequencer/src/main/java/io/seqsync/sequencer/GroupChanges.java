package io.seqsync.sequencer;

import static io.seqsync.sequencer.SequencerStores.key;

import io.seqsync.events.model.ChangeGroupSettings;
import io.seqsync.events.model.ChangeMembership;
import io.seqsync.events.model.Command;
import io.seqsync.events.model.GroupRolesChanged;
import io.seqsync.events.model.GroupSettingsChanged;
import io.seqsync.events.model.MembershipChanged;
import io.seqsync.events.model.Message;
import io.seqsync.events.model.MessageType;
import io.seqsync.events.model.SetGroupRole;

/**
 * A group's membership, roles and settings changed: {@link GroupRules} decides, and an accepted
 * change is a system notice at the group's next seq, applied to the group's state and emitted with
 * its event. One per processor, so not shared between threads.
 */
final class GroupChanges {
  private final GroupRules groups;
  private final ConversationSeqs seqs;
  private final StateTable<Long> reads;
  private final CommandOutput out;

  GroupChanges(GroupRules groups, ConversationSeqs seqs, StateTable<Long> reads, CommandOutput out) {
    this.groups = groups;
    this.seqs = seqs;
    this.reads = reads;
    this.out = out;
  }

  /** Whether the command is one of this class's: a membership, role or group settings change. */
  static boolean handles(Object payload) {
    return payload instanceof ChangeMembership || payload instanceof SetGroupRole
        || payload instanceof ChangeGroupSettings;
  }

  void change(Command command, long timestamp) {
    String convId = command.getConvId();
    Object payload = command.getPayload();
    GroupDecision decision = payload instanceof ChangeMembership change
        ? groups.membership(convId, command.getUserId(), change)
        : payload instanceof SetGroupRole role
            ? groups.role(convId, command.getUserId(), role)
            : groups.settings(convId, command.getUserId(), (ChangeGroupSettings) payload);
    if (decision.rejected()) {
      out.reject(command, decision.rejectReason(), decision.rejectDetail(), timestamp);
      return;
    }
    Message notice = seqs.append(command, command.getCommandId(), MessageType.SYSTEM,
        GroupNotices.content(command.getUserId(), payload, decision));
    groups.apply(convId, command.getUserId(), decision, notice.getSeq());
    if (payload instanceof ChangeMembership change) {
      // A new member sees history from their notice on: nothing before it is theirs to read (R20).
      decision.added().forEach(userId -> reads.put(key(userId, convId), notice.getSeq()));
      out.emit(command, new MembershipChanged(notice, decision.added(), decision.removed(), change.getGroupName(),
          decision.roles()), timestamp);
    } else if (payload instanceof SetGroupRole) {
      out.emit(command, new GroupRolesChanged(notice, decision.roles()), timestamp);
    } else {
      out.emit(command, new GroupSettingsChanged(notice, decision.membersCanInvite()), timestamp);
    }
  }
}
