package io.seqsync.sequencer;

import static io.seqsync.sequencer.SequencerHarness.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.seqsync.events.Commands;
import io.seqsync.events.EventSerdes;
import io.seqsync.events.model.Command;
import io.seqsync.events.model.CommandRejected;
import io.seqsync.events.model.CursorAdvanced;
import io.seqsync.events.model.DuplicateCommand;
import io.seqsync.events.model.Event;
import io.seqsync.events.model.Message;
import io.seqsync.events.model.MessageAppended;
import io.seqsync.events.model.MessageType;
import io.seqsync.events.model.ReadAdvanced;
import io.seqsync.events.model.RecallApplied;
import io.seqsync.events.model.RejectReason;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

class SequencerTopologyTest {
  private static final String CONV = "d:1:2";
  private static final Commands ALICE = new Commands(1, "phone");
  private static final Commands BOB = new Commands(2, "laptop");

  @AutoClose private final SequencerHarness harness = new SequencerHarness();

  @Test
  void seqIsContiguousPerConversationOverManyInterleavedConversations() {
    Random random = new Random(42);
    Map<String, Integer> sentPerConv = new HashMap<>();
    for (int i = 0; i < 3_000; i++) {
      long other = 2 + random.nextInt(60);
      String conv = "d:1:" + other;
      harness.pipe(ALICE.sendText(conv, "m" + i, "hello " + i));
      sentPerConv.merge(conv, 1, Integer::sum);
    }

    List<Message> messages = appended(harness.events());
    assertThat(messages).hasSize(3_000);
    Map<String, Long> lastSeq = new HashMap<>();
    Set<Long> msgIds = new HashSet<>();
    long previousMsgId = 0;
    for (Message message : messages) {
      long expected = lastSeq.getOrDefault(message.getConvId(), 0L) + 1;
      assertThat(message.getSeq()).as("seq in %s", message.getConvId()).isEqualTo(expected);
      lastSeq.put(message.getConvId(), message.getSeq());
      assertThat(msgIds.add(message.getMsgId())).as("msgId unique").isTrue();
      assertThat(message.getMsgId()).as("msgIds are time-ordered within a partition").isGreaterThan(previousMsgId);
      previousMsgId = message.getMsgId();
    }
    sentPerConv.forEach((conv, count) -> assertThat(lastSeq.get(conv)).isEqualTo((long) count));
  }

  @Test
  void thePersistedMsgIdBoundCoversEveryIssuedId() {
    for (int i = 0; i < 500; i++) {
      harness.pipe(ALICE.sendText(CONV, "c" + i, "m" + i));
    }
    long highestIssued = appended(harness.events()).stream().mapToLong(Message::getMsgId).max().orElseThrow();

    KeyValueStore<String, byte[]> state = harness.driver.getKeyValueStore(SequencerStores.STATE);
    Long bound = SequencerStores.msgIdClock(state).get("0");
    assertThat(bound).isGreaterThanOrEqualTo(highestIssued);
    assertThat(new MsgIdGenerator(0, bound).next(T0.toEpochMilli())).isGreaterThan(highestIssued);
  }

  @Test
  void retriedSendWithinTheWindowAnswersTheOriginalAndAppendsNothing() {
    assertRetriesAnswerTheOriginal(T0, T0.plus(Duration.ofHours(1)), T0.plus(Duration.ofHours(24)));
  }

  @Test
  void sameClientMsgIdAfterTheWindowIsANewMessage() {
    harness.pipe(ALICE.sendText(CONV, "client-1", "hi"), T0);
    harness.pipe(ALICE.sendText(CONV, "client-1", "hi again"), T0.plus(Duration.ofHours(24)).plusMillis(1));

    assertThat(appended(harness.events())).extracting(Message::getSeq).containsExactly(1L, 2L);
    assertThat(harness.replies()).isEmpty();
  }

  @Test
  void retryInTheNextBucketOrStampedBeforeTheOriginalStillFindsIt() {
    // T0 starts a 24 h bucket: the original is filed in the bucket before it, the retries land in
    // T0's bucket or, stamped by a clock behind the original's, two buckets back.
    Instant original = T0.minusSeconds(1);
    assertRetriesAnswerTheOriginal(original, original.plus(Duration.ofHours(24)), original.minus(Duration.ofHours(24)));
  }

  @Test
  void aNeighbouringBucketCountsOnlyWithinTheWindow() {
    Duration window = Duration.ofHours(24);
    harness.pipe(ALICE.sendText(CONV, "client-1", "hi"), T0);
    harness.pipe(ALICE.sendText(CONV, "client-1", "hi"), T0.plus(window).plusMillis(1));
    harness.pipe(ALICE.sendText(CONV, "client-2", "hi"), T0.plus(window).minusMillis(1));
    Command exactlyAWindowEarlier = ALICE.sendText(CONV, "client-2", "hi");
    harness.pipe(exactlyAWindowEarlier, T0.minusMillis(1));
    harness.pipe(ALICE.sendText(CONV, "client-3", "hi"), T0.plus(window).minusMillis(1));
    harness.pipe(ALICE.sendText(CONV, "client-3", "hi"), T0.minusMillis(2));

    List<Message> messages = appended(harness.events());
    assertThat(messages).extracting(Message::getSeq).containsExactly(1L, 2L, 3L, 4L, 5L);
    assertThat(harness.replies()).containsExactly(
        new DuplicateCommand(exactlyAWindowEarlier.getCommandId(), CONV, messages.get(2).getMsgId(), 3L));
  }

  @Test
  void dedupKeysArePerConversation() {
    harness.pipe(ALICE.sendText("d:1:2", "same", "to bob"));
    harness.pipe(ALICE.sendText("d:1:3", "same", "to carol"));

    assertThat(appended(harness.events())).extracting(Message::getConvId).containsExactly("d:1:2", "d:1:3");
  }

  @Test
  void dedupEntriesExpireSoTheStoreDoesNotGrow() {
    for (int i = 0; i < 200; i++) {
      harness.pipe(ALICE.sendText(CONV, "old-" + i, "x"), T0.plusSeconds(i));
    }
    assertThat(dedupEntries()).isEqualTo(200);

    harness.pipe(ALICE.sendText(CONV, "new", "x"), T0.plus(Duration.ofHours(60)));

    assertThat(dedupEntries()).isEqualTo(1);
  }

  @Test
  void recallGivesTheNoticeItsOwnSeqAndTheOriginalKeepsItsPlace() {
    for (int i = 1; i <= 3; i++) {
      harness.pipe(ALICE.sendText(CONV, "c" + i, "message " + i));
    }
    harness.events();

    Command recall = ALICE.recall(CONV, 2);
    harness.pipe(recall);
    List<Event> events = harness.events();
    assertThat(events).hasSize(1);
    RecallApplied applied = (RecallApplied) events.get(0).getPayload();
    assertThat(applied.getRecalledSeq()).isEqualTo(2);
    assertThat(applied.getNotice().getSeq()).isEqualTo(4);
    assertThat(applied.getNotice().getType()).isEqualTo(MessageType.RECALL);
    assertThat(applied.getNotice().getContent()).isEqualTo("2");
    assertThat(events.get(0).getCommandId()).isEqualTo(recall.getCommandId());

    Command repeated = ALICE.recall(CONV, 2);
    harness.pipe(repeated);
    assertThat(harness.events()).isEmpty();
    assertThat(harness.replies()).containsExactly(
        new DuplicateCommand(repeated.getCommandId(), CONV, applied.getNotice().getMsgId(), 4L));

    harness.pipe(ALICE.sendText(CONV, "c5", "after the recall"));
    assertThat(appended(harness.events())).extracting(Message::getSeq).containsExactly(5L);
  }

  @Test
  void recallOfASeqNotYetGivenIsRejectedAndConsumesNoSeq() {
    harness.pipe(ALICE.sendText(CONV, "c1", "one"));
    harness.events();

    Command recall = ALICE.recall(CONV, 9);
    harness.pipe(recall);

    Event rejected = harness.events().get(0);
    assertThat(rejected.getCommandId()).isEqualTo(recall.getCommandId());
    assertThat(((CommandRejected) rejected.getPayload()).getReason()).isEqualTo(RejectReason.NO_SUCH_MESSAGE);
    harness.pipe(ALICE.sendText(CONV, "c2", "two"));
    assertThat(appended(harness.events())).extracting(Message::getSeq).containsExactly(2L);
  }

  @Test
  void undecodableCommandGoesToTheDeadLetterTopicAndProcessingContinues() {
    byte[] garbage = "not avro at all".getBytes(StandardCharsets.UTF_8);
    harness.pipeRaw(CONV, garbage, T0);
    harness.pipeRaw(CONV, null, T0);
    byte[] truncated = EventSerdes.command().encode(ALICE.sendText(CONV, "c1", "hello"));
    harness.pipeRaw(CONV, java.util.Arrays.copyOf(truncated, truncated.length - 3), T0);
    harness.pipe(ALICE.sendText(CONV, "c2", "still works"));

    List<TestRecord<byte[], byte[]>> dead = harness.deadLetters();
    assertThat(dead).hasSize(3);
    assertThat(dead.get(0).value()).isEqualTo(garbage);
    assertThat(header(dead.get(0), CommandProcessor.REASON_HEADER)).contains("undecodable");
    assertThat(header(dead.get(0), CommandProcessor.SOURCE_HEADER)).startsWith("seqsync.commands/0@");
    assertThat(appended(harness.events())).extracting(Message::getSeq).containsExactly(1L);
  }

  @Test
  void invalidCommandsAreDeadLetteredRejectedAndConsumeNoSeq() {
    Command tooLarge = ALICE.sendText(CONV, "big", "x".repeat(1025));
    Command notAMember = new Commands(3, "tablet").sendText(CONV, "intruder", "hi");
    Command systemType = ALICE.send(CONV, "sys", MessageType.SYSTEM, "{}");
    Command wrongKey = ALICE.sendText(CONV, "c1", "hi");
    Command controlInId = ALICE.sendText(CONV, "c2", "hi");
    controlInId.setCommandId("\u0000md-1");
    harness.pipe(tooLarge);
    harness.pipe(notAMember);
    harness.pipe(systemType);
    harness.pipeRaw("d:1:3", EventSerdes.command().encode(wrongKey), T0);
    harness.pipe(controlInId);
    harness.pipe(ALICE.sendText(CONV, "ok", "fine"));

    // Neither the misaddressed command nor the one with an uncorrelatable id is answered with an event.
    assertThat(harness.deadLetters()).extracting(record -> header(record, CommandProcessor.REASON_HEADER))
        .containsExactly("content exceeds 1024 bytes", "caller is not a member of the conversation",
            "message type SYSTEM cannot be sent by a client", "record key does not match convId",
            "malformed commandId");
    List<Event> events = harness.events();
    assertThat(events).extracting(Event::getCommandId)
        .containsExactly(tooLarge.getCommandId(), notAMember.getCommandId(), systemType.getCommandId(),
            events.get(3).getCommandId());
    assertThat(events.subList(0, 3)).allSatisfy(event ->
        assertThat(((CommandRejected) event.getPayload()).getReason()).isEqualTo(RejectReason.INVALID_COMMAND));
    assertThat(appended(events)).extracting(Message::getSeq).containsExactly(1L);
  }

  @Test
  void cursorsMoveForwardOnlyAreClampedToTheLatestSeqAndArePerDevice() {
    for (int i = 1; i <= 10; i++) {
      harness.pipe(ALICE.sendText(CONV, "c" + i, "m" + i));
    }
    harness.events();
    Commands bobPhone = new Commands(2, "phone");

    harness.pipe(BOB.ack(CONV, 5));
    harness.pipe(BOB.ack(CONV, 3));
    harness.pipe(BOB.ack(CONV, 5));
    harness.pipe(BOB.ack(CONV, 99));
    harness.pipe(bobPhone.ack(CONV, 2));

    assertThat(harness.events()).extracting(event -> (CursorAdvanced) event.getPayload())
        .containsExactly(new CursorAdvanced(2L, "laptop", 5L), new CursorAdvanced(2L, "laptop", 10L),
            new CursorAdvanced(2L, "phone", 2L));
  }

  @Test
  void readPositionIsPerUserAndForwardOnly() {
    for (int i = 1; i <= 4; i++) {
      harness.pipe(ALICE.sendText(CONV, "c" + i, "m" + i));
    }
    harness.events();

    harness.pipe(BOB.read(CONV, 3));
    harness.pipe(new Commands(2, "phone").read(CONV, 2));
    harness.pipe(new Commands(2, "phone").read(CONV, 4));

    assertThat(harness.events()).extracting(event -> (ReadAdvanced) event.getPayload())
        .containsExactly(new ReadAdvanced(2L, "laptop", 3L), new ReadAdvanced(2L, "phone", 4L));
  }

  @Test
  void sendingMovesTheSendersReadPositionWithoutAnEventOfItsOwn() {
    harness.pipe(BOB.sendText(CONV, "b1", "hi"));
    harness.pipe(ALICE.sendText(CONV, "a1", "hello"));
    harness.pipe(ALICE.sendText(CONV, "a2", "there"));
    assertThat(harness.events()).allSatisfy(event -> assertThat(event.getPayload()).isInstanceOf(MessageAppended.class));

    harness.pipe(ALICE.read(CONV, 2));
    harness.pipe(ALICE.read(CONV, 3));
    harness.pipe(BOB.read(CONV, 3));

    // Alice's read position is 3 already (her send): her reports move nothing; Bob's moves from 1.
    assertThat(harness.events()).extracting(event -> (ReadAdvanced) event.getPayload())
        .containsExactly(new ReadAdvanced(2L, "laptop", 3L));
  }

  @Test
  void membershipChangeIsASystemMessageWithItsOwnSeq() {
    harness.pipe(ALICE.membership("g:team", List.of(1L, 2L, 3L), List.of(), "team"));
    harness.pipe(ALICE.sendText("g:team", "c1", "welcome"));

    List<Event> events = harness.events();
    io.seqsync.events.model.MembershipChanged changed = (io.seqsync.events.model.MembershipChanged) events.get(0).getPayload();
    assertThat(changed.getNotice().getSeq()).isEqualTo(1);
    assertThat(changed.getNotice().getType()).isEqualTo(MessageType.SYSTEM);
    assertThat(changed.getAdded()).containsExactly(1L, 2L, 3L);
    assertThat(appended(events)).extracting(Message::getSeq).containsExactly(2L);
  }

  private void assertRetriesAnswerTheOriginal(Instant sentAt, Instant... retriedAt) {
    harness.pipe(ALICE.sendText(CONV, "client-1", "hi"), sentAt);
    Message original = appended(harness.events()).get(0);
    List<DuplicateCommand> answers = new ArrayList<>();
    for (Instant at : retriedAt) {
      Command retry = ALICE.sendText(CONV, "client-1", "hi");
      harness.pipe(retry, at);
      answers.add(new DuplicateCommand(retry.getCommandId(), CONV, original.getMsgId(), 1L));
    }
    assertThat(harness.events()).isEmpty();
    assertThat(harness.replies()).containsExactlyElementsOf(answers);
  }

  private long dedupEntries() {
    WindowStore<String, DedupEntry> store = harness.driver.getWindowStore(SequencerStores.DEDUP);
    long count = 0;
    try (KeyValueIterator<Windowed<String>, DedupEntry> all = store.all()) {
      while (all.hasNext()) {
        KeyValue<Windowed<String>, DedupEntry> next = all.next();
        count += next.value == null ? 0 : 1;
      }
    }
    return count;
  }

  private static List<Message> appended(List<Event> events) {
    List<Message> messages = new ArrayList<>();
    for (Event event : events) {
      if (event.getPayload() instanceof MessageAppended appended) {
        messages.add(appended.getMessage());
      }
    }
    return messages;
  }

  private static String header(TestRecord<byte[], byte[]> record, String name) {
    return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
  }
}
