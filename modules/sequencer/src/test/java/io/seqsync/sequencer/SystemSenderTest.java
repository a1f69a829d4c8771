package io.seqsync.sequencer;

import static io.seqsync.sequencer.SequencerHarness.rejection;
import static org.assertj.core.api.Assertions.assertThat;

import io.seqsync.events.Commands;
import io.seqsync.events.UserIds;
import io.seqsync.events.model.Event;
import io.seqsync.events.model.MessageAppended;
import io.seqsync.events.model.RejectReason;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * The server API's system sender: its sends are appended to any conversation, a group it is no
 * member of and a direct conversation its id does not name; nothing else it asks for is allowed.
 */
class SystemSenderTest {
  private static final Commands SYSTEM = new Commands(UserIds.SYSTEM, UserIds.SYSTEM_DEVICE);
  private static final Commands OWNER = new Commands(1, "phone");

  @AutoClose private final SequencerHarness harness = new SequencerHarness(Map.of());

  @Test
  void theSystemSendsToAGroupAndADirectConversationItIsNoMemberOf() {
    harness.pipe(OWNER.membership("g:team", List.of(2L), List.of(), "Team"));
    harness.events();

    harness.pipe(SYSTEM.sendText("g:team", "welcome", "Welcome"));
    harness.pipe(SYSTEM.sendText("d:1:2", "hello", "Say hello"));
    harness.pipe(SYSTEM.sendText("g:team", "welcome", "Welcome")); // a retry: deduplicated

    List<Event> events = harness.events();
    assertThat(events).hasSize(2);
    assertThat(events).allSatisfy(event -> {
      assertThat(event.getPayload()).isInstanceOf(MessageAppended.class);
      assertThat(((MessageAppended) event.getPayload()).getMessage().getSenderId()).isEqualTo(UserIds.SYSTEM);
    });
    assertThat(((MessageAppended) events.get(0).getPayload()).getMessage().getSeq()).isEqualTo(2);
    assertThat(((MessageAppended) events.get(1).getPayload()).getMessage().getSeq()).isEqualTo(1);
    assertThat(harness.replies()).hasSize(1);
  }

  @Test
  void theSystemDoesNothingButSend() {
    harness.pipe(OWNER.membership("g:team", List.of(2L), List.of(), "Team"));
    harness.events();

    harness.pipe(SYSTEM.read("g:team", 1));
    harness.pipe(SYSTEM.membership("g:team", List.of(3L), List.of(), null));
    harness.pipe(SYSTEM.ack("d:1:2", 1));

    List<Event> events = harness.events();
    assertThat(events).hasSize(3).allSatisfy(event -> assertThat(rejection(event)).isNotNull());
    assertThat(rejection(events.get(0))).isEqualTo(RejectReason.NOT_ALLOWED);
    assertThat(rejection(events.get(2))).isEqualTo(RejectReason.INVALID_COMMAND);
    assertThat(harness.deadLetters()).as("a direct conversation not naming the system: invalid").hasSize(1);
  }
}
