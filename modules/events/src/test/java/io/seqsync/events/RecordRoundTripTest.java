package io.seqsync.events;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqsync.events.model.BlockChanged;
import io.seqsync.events.model.Command;
import io.seqsync.events.model.CommandRejected;
import io.seqsync.events.model.CursorAdvanced;
import io.seqsync.events.model.DraftUpdated;
import io.seqsync.events.model.Announcement;
import io.seqsync.events.model.DuplicateCommand;
import io.seqsync.events.model.OutcomeKind;
import io.seqsync.events.model.StoredOutcome;
import io.seqsync.events.model.Event;
import io.seqsync.events.model.GroupRolesChanged;
import io.seqsync.events.model.GroupSettingsChanged;
import io.seqsync.events.model.MembershipChanged;
import io.seqsync.events.model.Message;
import io.seqsync.events.model.MessageAppended;
import io.seqsync.events.model.MessageType;
import io.seqsync.events.model.ReadAdvanced;
import io.seqsync.events.model.RecallApplied;
import io.seqsync.events.model.RejectReason;
import io.seqsync.events.model.RoleChange;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every command and event payload survives the serdes (generated records encode themselves). */
class RecordRoundTripTest {
  private static final Commands ALICE = new Commands(1, "phone");
  private static final Message NOTICE = Message.newBuilder().setMsgId(99).setConvId("g:team").setSeq(7).setSenderId(1)
      .setSenderDevice("phone").setClientMsgId("c-7").setType(MessageType.SYSTEM).setContent("{\"n\":\"ü😀\"}")
      .setCreateTime(1_790_000_000_000L).build();

  @Test
  void everyCommandPayloadRoundTrips() {
    List<Command> commands = List.of(
        ALICE.send("d:1:2", "c-1", MessageType.IMAGE, "héllo"),
        ALICE.recall("d:1:2", 3),
        ALICE.ack("d:1:2", 4),
        ALICE.read("d:1:2", 5),
        ALICE.draft("d:1:2", "half a thought"),
        ALICE.membership("g:team", List.of(2L, 3L), List.of(4L), "the team"),
        ALICE.membership("g:team", List.of(), List.of(5L), null),
        ALICE.role("g:team", 5L, "admin"),
        ALICE.settings("g:team", true),
        ALICE.block("d:1:2", true));

    for (Command command : commands) {
      assertThat(EventSerdes.command().decode(EventSerdes.command().encode(command))).isEqualTo(command);
    }
  }

  @Test
  void everyEventPayloadRoundTrips() {
    List<Object> payloads = List.of(
        new MessageAppended(NOTICE),
        new RecallApplied(NOTICE, 3L),
        new MembershipChanged(NOTICE, List.of(2L), List.of(), "the team", List.of()),
        new MembershipChanged(NOTICE, List.of(), List.of(3L), null, List.of(new RoleChange(4L, "owner"))),
        new GroupRolesChanged(NOTICE, List.of(new RoleChange(4L, "owner"), new RoleChange(3L, "admin"))),
        new GroupSettingsChanged(NOTICE, true),
        new BlockChanged(1L, 2L, true),
        new CursorAdvanced(2L, "laptop", 5L),
        new ReadAdvanced(2L, "laptop", 6L),
        new DraftUpdated(2L, "laptop", ""),
        new CommandRejected(RejectReason.INVALID_COMMAND, "malformed convId"));

    for (Object payload : payloads) {
      Event event = new Event("g:team", "cmd-1", 1_790_000_000_001L, payload);
      assertThat(EventSerdes.event().decode(EventSerdes.event().encode(event))).isEqualTo(event);
    }
    DuplicateCommand duplicate = new DuplicateCommand("cmd-2", "g:team", 99L, 7L);
    assertThat(EventSerdes.duplicate().decode(EventSerdes.duplicate().encode(duplicate))).isEqualTo(duplicate);
    Announcement announcement = new Announcement(List.of(
        new StoredOutcome(OutcomeKind.APPENDED, "cmd-3", "d:1:2", 7L, 99L, 1_790_000_000_002L, ""),
        new StoredOutcome(OutcomeKind.REJECTED, "cmd-4", "g:team", 0L, 0L, 0L, "NOT_ALLOWED: not a member")));
    assertThat(EventSerdes.announcement().decode(EventSerdes.announcement().encode(announcement))).isEqualTo(announcement);
  }
}
