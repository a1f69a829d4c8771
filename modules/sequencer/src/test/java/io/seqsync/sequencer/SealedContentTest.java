package io.seqsync.sequencer;

import static io.seqsync.sequencer.SequencerHarness.rejection;
import static org.assertj.core.api.Assertions.assertThat;

import io.seqsync.events.Commands;
import io.seqsync.events.SealedText;
import io.seqsync.events.model.CommandRejected;
import io.seqsync.events.model.DraftUpdated;
import io.seqsync.events.model.Event;
import io.seqsync.events.model.MessageAppended;
import io.seqsync.events.model.MessageEdited;
import io.seqsync.events.model.RejectReason;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Sealed texts through the sequencer (TopologyTestDriver): appended, edited and drafted as they
 * came, never opened (the sequencer holds no key); the largest plaintext's sealed form fits, a
 * longer or malformed one is refused.
 */
class SealedContentTest {
  private static final Commands ALICE = new Commands(1, "phone");
  private static final String KEY_ID = "A".repeat(SealedText.KEY_ID_LENGTH);

  private final SequencerHarness harness = new SequencerHarness();

  @AfterEach
  void close() {
    harness.close();
  }

  @Test
  void sealedTextsPassThroughUnopened() {
    String largest = SealedText.of(KEY_ID, "b".repeat(SealedText.maxLength(1024) - SealedText.of(KEY_ID, "").length()));
    harness.pipe(ALICE.sendText("d:1:2", "c1", largest));
    harness.pipe(ALICE.edit("d:1:2", 1, SealedText.of(KEY_ID, "edited")));
    harness.pipe(ALICE.draft("d:1:2", SealedText.of(KEY_ID, "draft")));

    List<Event> events = harness.events();
    assertThat(((MessageAppended) events.get(0).getPayload()).getMessage().getContent()).isEqualTo(largest);
    MessageEdited edit = (MessageEdited) events.get(1).getPayload();
    assertThat(edit.getContent()).isEqualTo(SealedText.of(KEY_ID, "edited"));
    assertThat(edit.getNotice().getContent()).contains("\\u0001s1." + KEY_ID + ".edited");
    assertThat(((DraftUpdated) events.get(2).getPayload()).getText()).isEqualTo(SealedText.of(KEY_ID, "draft"));
  }

  @Test
  void aSealedTextLongerThanTheLargestPlaintextsOrMalformedIsRefused() {
    harness.pipe(ALICE.sendText("d:1:2", "c1", SealedText.of(KEY_ID, "b".repeat(SealedText.maxLength(1024)))));
    harness.pipe(ALICE.sendText("d:1:2", "c2", SealedText.PREFIX + "short"));

    List<Event> events = harness.events();
    assertThat(events).hasSize(2);
    assertThat(events).allSatisfy(event -> assertThat(rejection(event)).isEqualTo(RejectReason.INVALID_COMMAND));
    assertThat(((CommandRejected) events.get(1).getPayload()).getDetail()).contains("malformed sealed text");
  }
}
