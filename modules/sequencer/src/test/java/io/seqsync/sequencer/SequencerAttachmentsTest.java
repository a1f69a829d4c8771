package io.seqsync.sequencer;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqsync.events.AttachmentRules;
import io.seqsync.events.Commands;
import io.seqsync.events.model.Attachment;
import io.seqsync.events.model.Command;
import io.seqsync.events.model.Event;
import io.seqsync.events.model.Message;
import io.seqsync.events.model.MessageAppended;
import io.seqsync.events.model.MessageType;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The sequencer carries a sender's own uploads into the log and refuses anyone else's, or one beyond the limits. */
class SequencerAttachmentsTest {
  private static final String CONV = "d:1:2";
  private static final Commands ALICE = new Commands(1, "phone");

  private final SequencerHarness harness = new SequencerHarness(Map.of("attachments.max-bytes", "1000",
      "attachments.types", "image/png,application/pdf"));

  @AfterEach
  void close() {
    harness.close();
  }

  @Test
  void aSendersOwnUploadIsAppendedWithTheMessage() {
    Attachment photo = attachment(AttachmentRules.newKey(1), 900, "image/png", 640, 480);
    harness.pipe(ALICE.send(CONV, "photo", MessageType.IMAGE, "", photo));

    Message appended = ((MessageAppended) harness.single().getPayload()).getMessage();
    assertThat(appended.getSeq()).isEqualTo(1);
    assertThat(appended.getAttachment()).isEqualTo(photo);
  }

  @Test
  void anotherUsersObjectOrOneBeyondTheLimitsIsDeadLetteredAndTakesNoSeq() {
    List<Command> refused = List.of(
        ALICE.send(CONV, "theirs", MessageType.FILE, "", attachment(AttachmentRules.newKey(2), 10, "application/pdf", null, null)),
        ALICE.send(CONV, "forged", MessageType.FILE, "", attachment("u/1/../2/x", 10, "application/pdf", null, null)),
        ALICE.send(CONV, "big", MessageType.FILE, "", attachment(AttachmentRules.newKey(1), 1001, "application/pdf", null, null)),
        ALICE.send(CONV, "type", MessageType.FILE, "", attachment(AttachmentRules.newKey(1), 10, "text/html", null, null)),
        ALICE.send(CONV, "notimage", MessageType.IMAGE, "", attachment(AttachmentRules.newKey(1), 10, "application/pdf", null, null)),
        ALICE.send(CONV, "text", MessageType.TEXT, "hi", attachment(AttachmentRules.newKey(1), 10, "image/png", null, null)),
        ALICE.send(CONV, "dims", MessageType.FILE, "", attachment(AttachmentRules.newKey(1), 10, "application/pdf", 5, 5)));
    refused.forEach(harness::pipe);
    harness.pipe(ALICE.send(CONV, "ok", MessageType.FILE, "", attachment(AttachmentRules.newKey(1), 10, "application/pdf", null, null)));

    assertThat(harness.deadLetters()).extracting(record ->
        new String(record.headers().lastHeader(CommandProcessor.REASON_HEADER).value(), StandardCharsets.UTF_8))
        .containsExactly("attachment key is not one of the sender's uploads", "attachment key is not one of the sender's uploads",
            "attachment size must be 1-1000 bytes", "attachment type must be one of image/png, application/pdf",
            "an image message carries an image/* attachment", "only image and file messages carry an attachment",
            "only images have dimensions, width and height both");
    List<Event> events = harness.events();
    assertThat(events.stream().filter(event -> event.getPayload() instanceof MessageAppended)
        .map(event -> ((MessageAppended) event.getPayload()).getMessage().getClientMsgId())).containsExactly("ok");
  }

  private static Attachment attachment(String key, long size, String type, Integer width, Integer height) {
    return new Attachment(key, size, type, "name.bin", width, height);
  }
}
