package io.seqsync.sequencer;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqsync.events.Commands;
import io.seqsync.events.model.Command;
import io.seqsync.events.model.DuplicateCommand;
import io.seqsync.events.model.Event;
import io.seqsync.events.model.Message;
import io.seqsync.events.model.MessageAppended;
import io.seqsync.events.model.MessageEdited;
import io.seqsync.events.model.MessageType;
import io.seqsync.events.model.ReactionChanged;
import io.seqsync.events.model.RejectReason;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/** Edits, reactions, replies and mentions through the sequencer's topology (TopologyTestDriver). */
class MessageActionsTest {
  private static final String CONV = "d:1:2";
  private static final Commands ALICE = new Commands(1, "phone");
  private static final Commands BOB = new Commands(2, "laptop");

  @AutoClose private final SequencerHarness harness = new SequencerHarness();

  @Test
  void anEditIsANoticeWithItsOwnSeqNamingTheEditedMessage() {
    harness.pipe(ALICE.sendText(CONV, "c1", "helo"));
    harness.events();

    Command edit = ALICE.edit(CONV, 1, "hello \"world\"\n");
    harness.pipe(edit);
    Event event = harness.single();
    MessageEdited edited = (MessageEdited) event.getPayload();
    assertThat(event.getCommandId()).isEqualTo(edit.getCommandId());
    assertThat(edited.getEditedSeq()).isEqualTo(1);
    assertThat(edited.getContent()).isEqualTo("hello \"world\"\n");
    assertThat(edited.getNotice().getSeq()).isEqualTo(2);
    assertThat(edited.getNotice().getType()).isEqualTo(MessageType.EDIT);
    assertThat(edited.getNotice().getContent()).isEqualTo("{\"seq\":1,\"content\":\"hello \\\"world\\\"\\n\"}");
  }

  @Test
  void oneReactionPerUserAndEmojiRemovableAndARepeatAnsweredWithTheFirstNotice() {
    harness.pipe(ALICE.sendText(CONV, "c1", "lunch?"));
    harness.events();

    harness.pipe(BOB.react(CONV, 1, "👍", true));
    ReactionChanged added = (ReactionChanged) harness.single().getPayload();
    assertThat(added.getNotice().getSeq()).isEqualTo(2);
    assertThat(added.getNotice().getType()).isEqualTo(MessageType.REACTION);
    assertThat(added.getNotice().getContent()).isEqualTo("{\"seq\":1,\"emoji\":\"👍\",\"added\":true}");
    assertThat(added.getAdded()).isTrue();

    Command again = BOB.react(CONV, 1, "👍", true);
    harness.pipe(again);
    assertThat(harness.events()).isEmpty();
    assertThat(harness.replies()).containsExactly(
        new DuplicateCommand(again.getCommandId(), CONV, added.getNotice().getMsgId(), 2L));

    harness.pipe(ALICE.react(CONV, 1, "👍", true)); // another user's same emoji is their own
    harness.pipe(BOB.react(CONV, 1, "🎉", true));
    harness.pipe(BOB.react(CONV, 1, "👍", false));
    List<Event> events = harness.events();
    assertThat(events).extracting(e -> ((ReactionChanged) e.getPayload()).getNotice().getSeq()).containsExactly(3L, 4L, 5L);
    assertThat(((ReactionChanged) events.get(2).getPayload()).getAdded()).isFalse();

    harness.pipe(BOB.react(CONV, 1, "👍", false));
    assertThat(SequencerHarness.rejection(harness.single())).isEqualTo(RejectReason.NO_SUCH_REACTION);
    harness.pipe(BOB.react(CONV, 1, "👍", true));
    assertThat(((ReactionChanged) harness.single().getPayload()).getNotice().getSeq()).isEqualTo(6);
  }

  @Test
  void aRecalledMessageTakesNoEditNorReactionAndItsReactionsAreForgotten() {
    harness.pipe(ALICE.sendText(CONV, "c1", "oops"));
    harness.pipe(BOB.react(CONV, 1, "👀", true));
    harness.pipe(ALICE.recall(CONV, 1));
    harness.events();

    harness.pipe(ALICE.edit(CONV, 1, "fixed"));
    assertThat(SequencerHarness.rejection(harness.single())).isEqualTo(RejectReason.RECALLED);
    harness.pipe(BOB.react(CONV, 1, "👍", true));
    assertThat(SequencerHarness.rejection(harness.single())).isEqualTo(RejectReason.RECALLED);
    harness.pipe(BOB.react(CONV, 1, "👀", false));
    assertThat(SequencerHarness.rejection(harness.single())).isEqualTo(RejectReason.RECALLED);

    harness.pipe(ALICE.edit(CONV, 9, "nothing there"));
    assertThat(SequencerHarness.rejection(harness.single())).isEqualTo(RejectReason.NO_SUCH_MESSAGE);
    harness.pipe(ALICE.sendText(CONV, "c2", "next"));
    assertThat(((MessageAppended) harness.single().getPayload()).getMessage().getSeq())
        .as("rejections consume no seq").isEqualTo(4);
  }

  @Test
  void aReplyAndItsMentionsAreCarriedOnTheMessage() {
    harness.pipe(ALICE.sendText(CONV, "c1", "who's in?"));
    harness.pipe(BOB.send(CONV, "c2", MessageType.TEXT, "me, @1", 1L, List.of(1L)));
    Message reply = ((MessageAppended) harness.events().get(1).getPayload()).getMessage();
    assertThat(reply.getReplyTo()).isEqualTo(1L);
    assertThat(reply.getMentions()).containsExactly(1L);
  }

  @Test
  void invalidActionsAreDeadLetteredAndRejected() {
    harness.pipe(ALICE.sendText(CONV, "c1", "x"));
    harness.events();
    harness.pipe(BOB.react(CONV, 1, "two words", true));
    harness.pipe(BOB.react(CONV, 1, "", true));
    harness.pipe(ALICE.edit(CONV, 0, "x"));
    harness.pipe(ALICE.edit(CONV, 1, "nul\u0000"));
    harness.pipe(BOB.send(CONV, "c2", MessageType.TEXT, "x", 0L, List.of()));
    harness.pipe(BOB.send(CONV, "c3", MessageType.TEXT, "x", null, List.of(-4L)));
    assertThat(harness.events()).extracting(SequencerHarness::rejection).containsOnly(RejectReason.INVALID_COMMAND)
        .hasSize(6);
    assertThat(harness.deadLetters()).hasSize(6);
  }
}
