package io.seqsync.sequencer;

import static io.seqsync.sequencer.SequencerStores.key;
import static org.assertj.core.api.Assertions.assertThat;

import io.seqsync.events.Commands;
import io.seqsync.events.model.ChangeMembership;
import io.seqsync.events.model.Command;
import io.seqsync.events.model.CommandRejected;
import io.seqsync.events.model.Event;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Random sequences of membership, role and settings commands from random members and strangers:
 * a group with members always has an owner among them, admins are members and never the owner,
 * the member count is the members stored, a plain member never adds unless the group lets members
 * invite, and a rejected command changes nothing of the group's state. One topology for the class,
 * a new group per try.
 */
class GroupRulesPropertyTest {
  private static final AtomicLong GROUPS = new AtomicLong();
  private static SequencerHarness harness;
  private static StateTable<GroupState> groups;
  private static StateTable<Long> members;
  private static StateTable<Long> admins;
  private static StateTable<Long> convSeq;

  /** One command: who asks and what. */
  record Step(long actor, int kind, List<Long> users, String role, boolean flag) {
    Command command(String convId) {
      Commands caller = new Commands(actor, "d" + actor);
      return switch (kind) {
        case 0 -> caller.membership(convId, users, List.of(), null);
        case 1 -> caller.membership(convId, List.of(), users, null);
        case 2 -> caller.membership(convId, List.of(), List.of(actor), null);
        case 3 -> caller.role(convId, users.get(0), role);
        default -> caller.settings(convId, flag);
      };
    }
  }

  /** What the sequencer keeps of one group. */
  record Snapshot(GroupState group, Map<Long, Long> members, Set<Long> admins, Long latestSeq) {}

  @BeforeContainer
  static void start() {
    harness = new SequencerHarness();
    KeyValueStore<String, byte[]> state = harness.driver.getKeyValueStore(SequencerStores.STATE);
    groups = SequencerStores.groups(state);
    members = SequencerStores.groupMembers(state);
    admins = SequencerStores.groupAdmins(state);
    convSeq = SequencerStores.convSeq(state);
  }

  @AfterContainer
  static void stop() {
    harness.close();
  }

  @Property(tries = 150)
  void rolesStayConsistentAndRejectedCommandsChangeNothing(
      @ForAll("initialMembers") List<Long> initial, @ForAll("steps") List<Step> steps) {
    String convId = "g:p" + GROUPS.incrementAndGet();
    harness.pipe(new Commands(1, "d1").membership(convId, initial, List.of(), "Prop"));
    harness.events();
    for (Step step : steps) {
      Snapshot before = snapshot(convId);
      Command command = step.command(convId);
      harness.pipe(command);
      List<Event> events = harness.events();
      harness.deadLetters();
      assertThat(events).hasSize(1);
      Snapshot after = snapshot(convId);
      if (events.get(0).getPayload() instanceof CommandRejected) {
        assertThat(after).as("rejected %s", step).isEqualTo(before);
        continue;
      }
      checkInvariants(after);
      boolean manager = before.group().ownerId() == step.actor() || before.admins().contains(step.actor());
      if (command.getPayload() instanceof ChangeMembership change && !change.getAdd().isEmpty()) {
        assertThat(manager || before.group().membersCanInvite()).as("%s added", step).isTrue();
      }
    }
  }

  private static void checkInvariants(Snapshot state) {
    GroupState group = state.group();
    assertThat(group.memberCount()).isEqualTo(state.members().size());
    assertThat(state.members().keySet()).containsAll(state.admins());
    if (group.memberCount() > 0) {
      assertThat(state.members()).containsKey(group.ownerId());
      assertThat(state.admins()).doesNotContain(group.ownerId());
    } else {
      assertThat(group.ownerId()).isZero();
      assertThat(state.admins()).isEmpty();
    }
  }

  private static Snapshot snapshot(String convId) {
    String prefix = key(convId, "");
    Map<Long, Long> memberSeqs = members.withKeyPrefix(prefix).stream().collect(Collectors.toMap(
        entry -> Long.parseLong(entry.getKey().substring(prefix.length())), Map.Entry::getValue));
    Set<Long> adminIds = admins.withKeyPrefix(prefix).stream()
        .map(entry -> Long.parseLong(entry.getKey().substring(prefix.length()))).collect(Collectors.toSet());
    return new Snapshot(groups.get(convId), memberSeqs, adminIds, convSeq.get(convId));
  }

  @Provide
  Arbitrary<List<Long>> initialMembers() {
    return Arbitraries.longs().between(2, 6).list().ofMaxSize(4);
  }

  @Provide
  Arbitrary<List<Step>> steps() {
    Arbitrary<Long> user = Arbitraries.longs().between(1, 7);
    Arbitrary<Step> step = Combinators.combine(user, Arbitraries.integers().between(0, 4),
            user.list().ofMinSize(1).ofMaxSize(3), Arbitraries.of("owner", "admin", "member"),
            Arbitraries.of(true, false))
        .as(Step::new);
    return step.list().ofMinSize(1).ofMaxSize(25);
  }
}
