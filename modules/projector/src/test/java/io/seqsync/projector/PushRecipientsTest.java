package io.seqsync.projector;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqsync.events.model.Event;
import io.seqsync.events.model.MembershipChanged;
import io.seqsync.events.model.Message;
import io.seqsync.events.model.MessageAppended;
import io.seqsync.events.model.MessageType;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Who is pushed each event of a batch that also changes the membership. */
class PushRecipientsTest {
  private static final String GROUP = "g:team";

  @Test
  void eachEventReachesTheMembersOfItsOwnMoment() {
    // Committed after the batch: 1 and 3. In the batch: a message, then "add 3, remove 2", then a message.
    List<Event> batch = List.of(message(GROUP, 5), change(GROUP, 6, List.of(3L), List.of(2L)), message(GROUP, 7),
        message("d:1:2", 1));
    Map<String, List<Long>> committed = Map.of(GROUP, List.of(1L, 3L), "d:1:2", List.of(1L, 2L));

    List<Set<Long>> recipients = PushPublisher.membersAtEachEvent(batch, committed::get);

    assertThat(recipients.get(0)).as("before the change: 2 still in, 3 not yet").containsExactlyInAnyOrder(1L, 2L);
    assertThat(recipients.get(1)).as("the notice: the members after it").containsExactlyInAnyOrder(1L, 3L);
    assertThat(recipients.get(2)).containsExactlyInAnyOrder(1L, 3L);
    assertThat(recipients.get(3)).containsExactlyInAnyOrder(1L, 2L);
  }

  private static Event message(String convId, long seq) {
    return new Event(convId, "cmd-" + seq, 0L, new MessageAppended(notice(convId, seq, MessageType.TEXT)));
  }

  private static Event change(String convId, long seq, List<Long> added, List<Long> removed) {
    return new Event(convId, "cmd-" + seq, 0L,
        new MembershipChanged(notice(convId, seq, MessageType.SYSTEM), added, removed, null, List.of()));
  }

  private static Message notice(String convId, long seq, MessageType type) {
    return Message.newBuilder().setMsgId(1000 + seq).setConvId(convId).setSeq(seq).setSenderId(1L)
        .setSenderDevice("phone").setClientMsgId("c" + seq).setType(type).setContent("x").setCreateTime(0L).build();
  }
}
