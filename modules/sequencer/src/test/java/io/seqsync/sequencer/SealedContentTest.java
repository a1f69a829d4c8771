package io.seqsync.sequencer;

import static io.seqsync.sequencer.SequencerHarness.rejection;
import static org.assertj.core.api.Assertions.assertThat;

import io.seqsync.events.Commands;
import io.seqsync.events.SealedText;
import io.seqsync.events.model.Attachment;
import io.seqsync.events.model.CommandRejected;
import io.seqsync.events.model.DraftUpdated;
import io.seqsync.events.model.Event;
import io.seqsync.events.model.MessageAppended;
import io.seqsync.events.model.MessageEdited;
import io.seqsync.events.model.MessageType;
import io.seqsync.events.model.ReactionChanged;
import io.seqsync.events.model.RejectReason;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Sealed texts through the sequencer (TopologyTestDriver): appended, edited, drafted, attached and
 * reacted with as they came, never opened (the sequencer holds no key; a sealed emoji is one
 * reaction by its sealed text); the largest plaintext's sealed form fits, a longer or malformed one
 * is refused, and a sealed attachment key must still name the sender's namespace.
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
  void aSealedAttachmentAndSealedEmojiPassThroughAndOneSealedEmojiIsOneReaction() {
    String sealedKey = "u/1/" + SealedText.of(KEY_ID, "k".repeat(80));
    Attachment photo = new Attachment(sealedKey, 10L, "image/png", SealedText.of(KEY_ID, "name"), 1, 1);
    harness.pipe(ALICE.send("d:1:2", "c1", MessageType.IMAGE, SealedText.of(KEY_ID, "photo"), photo));
    String emoji = SealedText.of(KEY_ID, "emoji");
    harness.pipe(ALICE.react("d:1:2", 1, emoji, true));
    harness.pipe(ALICE.react("d:1:2", 1, emoji, true));
    harness.pipe(ALICE.react("d:1:2", 1, emoji, false));
    harness.pipe(ALICE.react("d:1:2", 1, emoji, false));

    List<Event> events = harness.events();
    assertThat(events).hasSize(4);
    assertThat(((MessageAppended) events.get(0).getPayload()).getMessage().getAttachment()).isEqualTo(photo);
    ReactionChanged added = (ReactionChanged) events.get(1).getPayload();
    assertThat(added.getEmoji()).isEqualTo(emoji);
    assertThat(added.getAdded()).isTrue();
    assertThat(harness.replies()).as("the same sealed emoji again is the same reaction").hasSize(1);
    assertThat(((ReactionChanged) events.get(2).getPayload()).getAdded()).isFalse();
    assertThat(rejection(events.get(3))).isEqualTo(RejectReason.NO_SUCH_REACTION);
    assertThat(((CommandRejected) events.get(3).getPayload()).getDetail()).doesNotContain(emoji);
  }

  @Test
  void aSealedKeyInAnotherUsersNamespaceOrAMalformedSealedNameOrEmojiIsRefused() {
    harness.pipe(ALICE.send("d:1:2", "c1", MessageType.IMAGE, "photo", new Attachment(
        "u/2/" + SealedText.of(KEY_ID, "k".repeat(80)), 10L, "image/png", SealedText.of(KEY_ID, "name"), 1, 1)));
    harness.pipe(ALICE.send("d:1:2", "c2", MessageType.IMAGE, "photo", new Attachment(
        "u/1/" + SealedText.of(KEY_ID, "k".repeat(200)), 10L, "image/png", SealedText.of(KEY_ID, "name"), 1, 1)));
    harness.pipe(ALICE.send("d:1:2", "c3", MessageType.IMAGE, "photo", new Attachment(
        "u/1/" + SealedText.of(KEY_ID, "k".repeat(80)), 10L, "image/png", SealedText.PREFIX + "short", 1, 1)));
    harness.pipe(ALICE.sendText("d:1:2", "c4", "target"));
    harness.pipe(ALICE.react("d:1:2", 1, SealedText.PREFIX + "short", true));

    assertThat(harness.deadLetters()).extracting(record ->
        new String(record.headers().lastHeader(CommandProcessor.REASON_HEADER).value(), StandardCharsets.UTF_8))
        .containsExactly("attachment key is not one of the sender's uploads",
            "attachment key is not one of the sender's uploads", "attachment name is a malformed sealed text",
            "an emoji is 1-32 characters without spaces or control characters");
    List<Event> events = harness.events();
    assertThat(events).hasSize(5);
    assertThat(((MessageAppended) events.get(3).getPayload()).getMessage().getSeq()).as("the only seq").isEqualTo(1);
    for (int i : new int[] {0, 1, 2, 4}) {
      assertThat(rejection(events.get(i))).isEqualTo(RejectReason.INVALID_COMMAND);
    }
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
