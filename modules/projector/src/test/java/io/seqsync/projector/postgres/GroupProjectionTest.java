package io.seqsync.projector.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqsync.events.model.BlockChanged;
import io.seqsync.events.model.Event;
import io.seqsync.events.model.GroupRolesChanged;
import io.seqsync.events.model.GroupSettingsChanged;
import io.seqsync.events.model.MembershipChanged;
import io.seqsync.events.model.Message;
import io.seqsync.events.model.MessageType;
import io.seqsync.events.model.OutcomeKind;
import io.seqsync.events.model.RoleChange;
import io.seqsync.events.model.StoredOutcome;
import io.seqsync.store.GroupQueries;
import io.seqsync.store.TestDatabases;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Roles, settings and blocks as ProjectionWriter stores them and GroupQueries reads them, on a real PostgreSQL. */
class GroupProjectionTest {
  private static final AtomicLong IDS = new AtomicLong(5_000);
  private static final String GROUP = "g:roles";
  private static final String DIRECT = "d:5:6";

  @RegisterExtension
  static final TestDatabases databases = new TestDatabases("groups");

  private final ProjectionWriter writer = new ProjectionWriter();
  private Jdbi jdbi;
  private GroupQueries groups;

  @BeforeEach
  void database() {
    jdbi = databases.database().jdbi();
    groups = new GroupQueries(jdbi);
  }

  @Test
  void rolesSettingsAndBlocksAreStoredInEventOrderWithinABatch() {
    AppliedBatch first = apply(List.of(
        membership(1, List.of(1L, 2L, 3L), List.of(), "Team", List.of()),
        event(GROUP, new GroupRolesChanged(notice(2), List.of(new RoleChange(2L, "admin")))),
        event(GROUP, new GroupSettingsChanged(notice(3), true)),
        event(DIRECT, new BlockChanged(5L, 6L, true))));

    assertThat(first.outcomes()).extracting(StoredOutcome::getKind).containsExactly(OutcomeKind.APPENDED,
        OutcomeKind.APPENDED, OutcomeKind.APPENDED, OutcomeKind.APPLIED);
    assertThat(groups.group(GROUP)).contains(new GroupQueries.Group(1L, 3, true, Set.of(2L)));
    assertThat(groups.blocked(5, 6)).isTrue();
    assertThat(groups.blocked(6, 5)).as("a block is one way").isFalse();
    assertThat(groups.blocksBy(5, 0, 10)).extracting(GroupQueries.Block::blockedId).containsExactly(6L);
    assertThat(groups.blockersAmong(6, List.of(5L, 7L))).containsExactly(5L);

    // The owner leaves and the admin takes over; 3 is named admin, removed and added again: a plain member.
    apply(List.of(
        membership(4, List.of(), List.of(1L), null, List.of(new RoleChange(2L, "owner"))),
        event(GROUP, new GroupRolesChanged(notice(5), List.of(new RoleChange(3L, "admin")))),
        membership(6, List.of(), List.of(3L), null, List.of()),
        membership(7, List.of(3L), List.of(), null, List.of()),
        event(DIRECT, new BlockChanged(5L, 6L, false))));

    GroupQueries.Group group = groups.group(GROUP).orElseThrow();
    assertThat(group).isEqualTo(new GroupQueries.Group(2L, 2, true, Set.of()));
    assertThat(group.roleOf(2)).isEqualTo("owner");
    assertThat(group.roleOf(3)).isEqualTo("member");
    assertThat(groups.blocked(5, 6)).isFalse();

    // An explicit transfer: the new owner's row is a member's, the former owner's an admin's.
    apply(List.of(event(GROUP, new GroupRolesChanged(notice(8),
        List.of(new RoleChange(3L, "owner"), new RoleChange(2L, "admin"))))));
    assertThat(groups.group(GROUP)).contains(new GroupQueries.Group(3L, 2, true, Set.of(2L)));
    assertThat(groups.groupCounts(List.of(1L, 2L, 3L), 10)).containsEntry(1L, 0).containsEntry(2L, 1).containsEntry(3L, 1);
  }

  private AppliedBatch apply(List<Event> events) {
    return jdbi.inTransaction(handle -> writer.apply(handle, events, ProjectionWriter.NewMessages.PLAIN));
  }

  private static Event membership(long seq, List<Long> added, List<Long> removed, String name, List<RoleChange> roles) {
    return event(GROUP, new MembershipChanged(notice(seq), added, removed, name, roles));
  }

  private static Message notice(long seq) {
    long msgId = IDS.incrementAndGet();
    return Message.newBuilder().setMsgId(msgId).setConvId(GROUP).setSeq(seq).setSenderId(1L).setSenderDevice("phone")
        .setClientMsgId("c" + msgId).setType(MessageType.SYSTEM).setContent("{}").setCreateTime(1_700_000_000_000L + seq)
        .build();
  }

  private static Event event(String convId, Object payload) {
    return new Event(convId, "cmd-" + IDS.incrementAndGet(), 1_700_000_000_000L, payload);
  }
}
