package io.seqsync.sequencer;

import static io.seqsync.sequencer.SequencerHarness.rejection;
import static org.assertj.core.api.Assertions.assertThat;

import io.seqsync.events.Commands;
import io.seqsync.events.model.Event;
import io.seqsync.events.model.MembershipChanged;
import io.seqsync.events.model.MessageAppended;
import io.seqsync.events.model.ReadAdvanced;
import io.seqsync.events.model.RejectReason;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

class GroupMembershipTest {
  private static final String GROUP = "g:team";
  private static final Commands OWNER = new Commands(1, "phone");
  private static final Commands MEMBER = new Commands(2, "laptop");
  private static final Commands OUTSIDER = new Commands(9, "tablet");

  @AutoClose private final SequencerHarness harness =
      new SequencerHarness(Map.of("sequencer.max-content-bytes", "1024", "sequencer.max-group-members", "4"));

  @Test
  void creatorIsOwnerAndMemberAndDuplicateIdsCountOnce() {
    harness.pipe(OWNER.membership(GROUP, List.of(2L, 3L, 2L), List.of(), "Team"));

    MembershipChanged created = (MembershipChanged) single().getPayload();
    assertThat(created.getAdded()).containsExactly(1L, 2L, 3L);
    assertThat(created.getGroupName()).isEqualTo("Team");
    assertThat(created.getNotice().getSeq()).isEqualTo(1);
  }

  @Test
  void onlyMembersSendAckReadOrDraftInAGroup() {
    harness.pipe(OWNER.membership(GROUP, List.of(2L), List.of(), "Team"));
    harness.events();

    harness.pipe(OUTSIDER.sendText(GROUP, "x1", "let me in"));
    harness.pipe(OUTSIDER.ack(GROUP, 1));
    harness.pipe(OUTSIDER.read(GROUP, 1));
    harness.pipe(OUTSIDER.draft(GROUP, "hm"));
    assertThat(harness.events())
        .allSatisfy(event -> assertThat(rejection(event)).isEqualTo(RejectReason.NOT_ALLOWED))
        .hasSize(4);

    harness.pipe(MEMBER.sendText(GROUP, "m1", "hello"));
    assertThat(single().getPayload()).isInstanceOf(MessageAppended.class);
  }

  @Test
  void onlyTheOwnerRemovesOthersAndAnyMemberMayLeave() {
    harness.pipe(OWNER.membership(GROUP, List.of(2L, 3L), List.of(), "Team"));
    harness.events();

    harness.pipe(MEMBER.membership(GROUP, List.of(), List.of(3L), null));
    assertThat(rejection(single())).isEqualTo(RejectReason.NOT_ADMIN);

    harness.pipe(MEMBER.membership(GROUP, List.of(), List.of(2L), null));
    MembershipChanged left = (MembershipChanged) single().getPayload();
    assertThat(left.getRemoved()).containsExactly(2L);

    harness.pipe(MEMBER.sendText(GROUP, "late", "still here?"));
    assertThat(rejection(single())).isEqualTo(RejectReason.NOT_ALLOWED);

    harness.pipe(OWNER.membership(GROUP, List.of(), List.of(3L), null));
    assertThat(((MembershipChanged) single().getPayload()).getRemoved()).containsExactly(3L);
  }

  @Test
  void aChangeThatChangesNobodyOrOutgrowsTheLimitIsRejected() {
    harness.pipe(OWNER.membership(GROUP, List.of(2L, 3L), List.of(), "Team"));
    harness.events();

    harness.pipe(OWNER.membership(GROUP, List.of(2L), List.of(7L), null));
    assertThat(rejection(single())).isEqualTo(RejectReason.INVALID_COMMAND);

    harness.pipe(OWNER.membership(GROUP, List.of(4L, 5L), List.of(), null));
    assertThat(rejection(single())).isEqualTo(RejectReason.NOT_ALLOWED);

    harness.pipe(OWNER.membership(GROUP, List.of(4L), List.of(), null));
    assertThat(((MembershipChanged) single().getPayload()).getAdded()).containsExactly(4L);

    harness.pipe(OWNER.membership("g:big", List.of(2L, 3L, 4L, 5L), List.of(), "Too big"));
    assertThat(rejection(single())).isEqualTo(RejectReason.NOT_ALLOWED);
  }

  @Test
  void creatingAnExistingGroupOrChangingAnUnknownOneIsRejected() {
    harness.pipe(OWNER.membership(GROUP, List.of(2L), List.of(), "Team"));
    harness.events();

    harness.pipe(MEMBER.membership(GROUP, List.of(3L), List.of(), "Mine now"));
    assertThat(rejection(single())).isEqualTo(RejectReason.INVALID_COMMAND);
    harness.pipe(OWNER.membership("g:nobody", List.of(2L), List.of(), null));
    assertThat(rejection(single())).isEqualTo(RejectReason.INVALID_COMMAND);
  }

  @Test
  void aNewMemberHasReadEverythingBeforeTheirJoiningNotice() {
    harness.pipe(OWNER.membership(GROUP, List.of(2L), List.of(), "Team"));
    harness.pipe(OWNER.sendText(GROUP, "a", "one"));
    harness.pipe(OWNER.sendText(GROUP, "b", "two"));
    harness.pipe(OWNER.membership(GROUP, List.of(3L), List.of(), null));
    harness.pipe(OWNER.sendText(GROUP, "c", "three"));
    harness.events();

    Commands newcomer = new Commands(3, "phone");
    harness.pipe(newcomer.read(GROUP, 3));
    harness.pipe(newcomer.read(GROUP, 4));
    harness.pipe(newcomer.read(GROUP, 5));
    assertThat(harness.events()).extracting(event -> ((ReadAdvanced) event.getPayload()).getSeq()).containsExactly(5L);
  }

  private Event single() {
    return harness.single();
  }
}
