package io.seqsync.sequencer;

import static io.seqsync.sequencer.SequencerHarness.rejection;
import static org.assertj.core.api.Assertions.assertThat;

import io.seqsync.events.Commands;
import io.seqsync.events.model.BlockChanged;
import io.seqsync.events.model.Event;
import io.seqsync.events.model.GroupRolesChanged;
import io.seqsync.events.model.GroupSettingsChanged;
import io.seqsync.events.model.MembershipChanged;
import io.seqsync.events.model.MessageAppended;
import io.seqsync.events.model.RejectReason;
import io.seqsync.events.model.RoleChange;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/** Roles, settings, ownership passing on and blocks, decided by the sequencer in each conversation's order. */
class GroupRolesTest {
  private static final String GROUP = "g:team";
  private static final Commands OWNER = new Commands(1, "phone");
  private static final Commands BOB = new Commands(2, "laptop");
  private static final Commands CAROL = new Commands(3, "tablet");
  private static final Commands DAN = new Commands(4, "phone");

  @AutoClose private final SequencerHarness harness = new SequencerHarness();

  @Test
  void onlyTheOwnerAndAdminsAddOrRemoveAndOnlyTheOwnerGivesRoles() {
    create(2L, 3L);

    harness.pipe(BOB.membership(GROUP, List.of(4L), List.of(), null));
    assertThat(rejection(single())).isEqualTo(RejectReason.NOT_ADMIN);
    harness.pipe(BOB.role(GROUP, 3, "admin"));
    assertThat(rejection(single())).isEqualTo(RejectReason.NOT_OWNER);

    harness.pipe(OWNER.role(GROUP, 2, "admin"));
    GroupRolesChanged named = (GroupRolesChanged) single().getPayload();
    assertThat(named.getChanges()).containsExactly(new RoleChange(2L, "admin"));
    assertThat(named.getNotice().getContent()).isEqualTo("{\"event\":\"roles\",\"by\":\"1\",\"roles\":{\"2\":\"admin\"}}");

    harness.pipe(BOB.membership(GROUP, List.of(4L), List.of(3L), null));
    MembershipChanged changed = (MembershipChanged) single().getPayload();
    assertThat(changed.getAdded()).containsExactly(4L);
    assertThat(changed.getRemoved()).containsExactly(3L);

    harness.pipe(BOB.membership(GROUP, List.of(), List.of(1L), null));
    assertThat(rejection(single())).isEqualTo(RejectReason.NOT_OWNER);
    harness.pipe(BOB.role(GROUP, 4, "admin"));
    assertThat(rejection(single())).isEqualTo(RejectReason.NOT_OWNER);
    harness.pipe(OWNER.role(GROUP, 4, "admin"));
    harness.events();
    harness.pipe(BOB.membership(GROUP, List.of(), List.of(4L), null));
    assertThat(rejection(single())).as("an admin removes no other admin").isEqualTo(RejectReason.NOT_OWNER);
    harness.pipe(OWNER.role(GROUP, 2, "member"));
    assertThat(((GroupRolesChanged) single().getPayload()).getChanges()).containsExactly(new RoleChange(2L, "member"));
    harness.pipe(BOB.membership(GROUP, List.of(5L), List.of(), null));
    assertThat(rejection(single())).isEqualTo(RejectReason.NOT_ADMIN);
  }

  @Test
  void membersCanInviteLetsAnyMemberAddButNotRemove() {
    create(2L, 3L);
    harness.pipe(BOB.settings(GROUP, true));
    assertThat(rejection(single())).isEqualTo(RejectReason.NOT_ADMIN);

    harness.pipe(OWNER.settings(GROUP, true));
    GroupSettingsChanged settings = (GroupSettingsChanged) single().getPayload();
    assertThat(settings.getMembersCanInvite()).isTrue();
    assertThat(settings.getNotice().getContent())
        .isEqualTo("{\"event\":\"settings\",\"by\":\"1\",\"settings\":{\"membersCanInvite\":true}}");
    harness.pipe(OWNER.settings(GROUP, true));
    assertThat(rejection(single())).isEqualTo(RejectReason.INVALID_COMMAND);

    harness.pipe(BOB.membership(GROUP, List.of(4L), List.of(), null));
    assertThat(((MembershipChanged) single().getPayload()).getAdded()).containsExactly(4L);
    harness.pipe(BOB.membership(GROUP, List.of(), List.of(4L), null));
    assertThat(rejection(single())).isEqualTo(RejectReason.NOT_ADMIN);
  }

  @Test
  void ownershipPassesToTheOldestAdminElseTheOldestMemberAndALastLeaverEmptiesTheGroup() {
    create(3L, 2L);
    harness.pipe(OWNER.membership(GROUP, List.of(4L), List.of(), null));
    harness.pipe(OWNER.role(GROUP, 4, "admin"));
    harness.events();

    assertThat(leave(OWNER).getRoleChanges()).containsExactly(new RoleChange(4L, "owner"));
    // 2 and 3 joined with the same notice: the lower id is the older.
    MembershipChanged second = leave(DAN);
    assertThat(second.getRoleChanges()).containsExactly(new RoleChange(2L, "owner"));
    assertThat(second.getNotice().getContent()).isEqualTo(
        "{\"event\":\"membership\",\"by\":\"4\",\"added\":[],\"removed\":[\"4\"],\"roles\":{\"2\":\"owner\"}}");
    harness.pipe(BOB.role(GROUP, 3, "admin"));
    assertThat(single().getPayload()).isInstanceOf(GroupRolesChanged.class);
    assertThat(leave(BOB).getRoleChanges()).containsExactly(new RoleChange(3L, "owner"));
    assertThat(leave(CAROL).getRoleChanges()).isEmpty();

    harness.pipe(CAROL.sendText(GROUP, "c1", "anyone?"));
    assertThat(rejection(single())).isEqualTo(RejectReason.NOT_ALLOWED);
  }

  @Test
  void theOwnerPassesOwnershipExplicitlyAndBecomesAnAdmin() {
    create(2L, 3L);
    harness.pipe(OWNER.role(GROUP, 3, "owner"));
    assertThat(((GroupRolesChanged) single().getPayload()).getChanges())
        .containsExactly(new RoleChange(3L, "owner"), new RoleChange(1L, "admin"));

    harness.pipe(OWNER.role(GROUP, 2, "admin"));
    assertThat(rejection(single())).isEqualTo(RejectReason.NOT_OWNER);
    harness.pipe(OWNER.membership(GROUP, List.of(5L), List.of(), null));
    assertThat(single().getPayload()).as("the former owner is an admin").isInstanceOf(MembershipChanged.class);
    harness.pipe(CAROL.role(GROUP, 1, "member"));
    assertThat(((GroupRolesChanged) single().getPayload()).getChanges()).containsExactly(new RoleChange(1L, "member"));
    harness.pipe(CAROL.role(GROUP, 3, "member"));
    assertThat(rejection(single())).isEqualTo(RejectReason.INVALID_COMMAND);
    harness.pipe(CAROL.role(GROUP, 9, "admin"));
    assertThat(rejection(single())).isEqualTo(RejectReason.INVALID_COMMAND);
  }

  @Test
  void aBlockedUsersDirectSendsAreRefusedUntilUnblocked() {
    String direct = "d:1:2";
    harness.pipe(OWNER.block(direct, true));
    BlockChanged block = (BlockChanged) single().getPayload();
    assertThat(block.getUserId()).isEqualTo(1L);
    assertThat(block.getBlockedId()).isEqualTo(2L);

    harness.pipe(BOB.sendText(direct, "b1", "hi?"));
    assertThat(rejection(single())).isEqualTo(RejectReason.BLOCKED);
    harness.pipe(OWNER.sendText(direct, "a1", "the blocker still writes"));
    assertThat(single().getPayload()).isInstanceOf(MessageAppended.class);
    harness.pipe(BOB.sendText("d:2:3", "b2", "others are not affected"));
    assertThat(single().getPayload()).isInstanceOf(MessageAppended.class);

    harness.pipe(OWNER.block(direct, false));
    assertThat(((BlockChanged) single().getPayload()).getBlocked()).isFalse();
    harness.pipe(BOB.sendText(direct, "b3", "hi again"));
    assertThat(single().getPayload()).isInstanceOf(MessageAppended.class);

    harness.pipe(OWNER.block(GROUP, true));
    assertThat(harness.deadLetters()).hasSize(1);
    assertThat(rejection(single())).isEqualTo(RejectReason.INVALID_COMMAND);
  }

  @Test
  void aGroupStateReadsBackAsWritten() {
    GroupState state = new GroupState(7, 3, true);
    byte[] bytes = GroupState.serde().serializer().serialize(null, state);
    assertThat(GroupState.serde().deserializer().deserialize(null, bytes)).isEqualTo(state);
  }

  private void create(Long... members) {
    harness.pipe(OWNER.membership(GROUP, List.of(members), List.of(), "Team"));
    assertThat(single().getPayload()).isInstanceOf(MembershipChanged.class);
  }

  private MembershipChanged leave(Commands member) {
    harness.pipe(member.membership(GROUP, List.of(), List.of(member.userId()), null));
    return (MembershipChanged) single().getPayload();
  }

  private Event single() {
    return harness.single();
  }
}
