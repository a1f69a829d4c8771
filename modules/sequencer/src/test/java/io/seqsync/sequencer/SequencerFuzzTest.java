package io.seqsync.sequencer;

import static io.seqsync.sequencer.SequencerHarness.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.seqsync.events.AppendedMessages;
import io.seqsync.events.ByteMutation;
import io.seqsync.events.Commands;
import io.seqsync.events.EventSerdes;
import io.seqsync.events.SampleRecords;
import io.seqsync.events.model.AckCursor;
import io.seqsync.events.model.ChangeMembership;
import io.seqsync.events.model.Command;
import io.seqsync.events.model.DraftUpdated;
import io.seqsync.events.model.Event;
import io.seqsync.events.model.MembershipChanged;
import io.seqsync.events.model.Message;
import io.seqsync.events.model.MessageAppended;
import io.seqsync.events.model.MessageType;
import io.seqsync.events.model.RecallMessage;
import io.seqsync.events.model.ReportRead;
import io.seqsync.events.model.SendMessage;
import io.seqsync.events.model.EditMessage;
import io.seqsync.events.model.SetReaction;
import io.seqsync.events.model.UpdateDraft;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.streams.test.TestRecord;

/**
 * Hostile records on the commands topic (arbitrary bytes, corrupted encodings, well-encoded
 * commands with bad fields, wrong keys): each one the sequencer cannot decode or accept lands,
 * unchanged, in the dead-letter topic; the processor never fails; nothing it emits could not be
 * stored; and a valid send afterwards still gets the conversation's next seq. One topology for the
 * whole class, as a long-running sequencer sees such records one after the other.
 */
class SequencerFuzzTest {
  private static final String CONV = "d:1:2";
  private static final int MAX_CONTENT = 1024;
  private static final int MAX_GROUP_MEMBERS = 10_000;
  private static final CommandValidator VALIDATOR = new CommandValidator(MAX_CONTENT, MAX_GROUP_MEMBERS);
  private static final AtomicLong SENT = new AtomicLong();

  private static SequencerHarness harness;
  private static Map<String, Long> latestSeqs;

  /** What is piped: the record's key (null: none) and value. */
  record Input(String key, byte[] value) {
    boolean belongsInDeadLetters() {
      try {
        return VALIDATOR.problem(key, EventSerdes.command().decode(value)).isPresent();
      } catch (SerializationException undecodable) {
        return true;
      }
    }
  }

  @BeforeContainer
  static void start() {
    harness = new SequencerHarness();
    latestSeqs = new HashMap<>();
  }

  @AfterContainer
  static void stop() {
    harness.close();
  }

  @Property(tries = 250)
  void hostileRecordsAreDeadLetteredAndSequencingGoesOn(@ForAll("inputs") List<Input> inputs) {
    List<byte[]> expectedDeadLetters = new ArrayList<>();
    for (Input input : inputs) {
      if (input.belongsInDeadLetters()) {
        expectedDeadLetters.add(input.value());
      }
      harness.pipeRaw(input.key(), input.value(), T0);
    }

    List<TestRecord<byte[], byte[]>> deadLetters = harness.deadLetters();
    assertThat(deadLetters).hasSameSizeAs(expectedDeadLetters);
    for (int i = 0; i < deadLetters.size(); i++) {
      assertThat(deadLetters.get(i).value()).isEqualTo(expectedDeadLetters.get(i));
      assertThat(deadLetters.get(i).headers().lastHeader(CommandProcessor.REASON_HEADER)).isNotNull();
    }
    harness.events().forEach(SequencerFuzzTest::recordStorable);

    Command valid = new Commands(1, "phone").sendText(CONV, "valid-" + SENT.incrementAndGet(), "still here");
    long expectedSeq = latestSeqs.getOrDefault(CONV, 0L) + 1;
    harness.pipe(valid, T0);
    List<Event> events = harness.events();
    events.forEach(SequencerFuzzTest::recordStorable);
    assertThat(events).singleElement().satisfies(event ->
        assertThat(((MessageAppended) event.getPayload()).getMessage().getSeq()).isEqualTo(expectedSeq));
  }

  @Provide
  Arbitrary<List<Input>> inputs() {
    Arbitrary<Input> garbage = Arbitraries.bytes().array(byte[].class).ofMaxSize(120)
        .map(bytes -> new Input(CONV, bytes));
    Arbitrary<Input> corrupted = Combinators.combine(commands(), ByteMutation.arbitrary().list().ofMinSize(1).ofMaxSize(3))
        .as((command, mutations) -> new Input(command.getConvId(),
            ByteMutation.applyAll(EventSerdes.command().encode(command), mutations)));
    Arbitrary<Input> wellEncoded = Combinators.combine(commands(), Arbitraries.integers().between(0, 5))
        .as((command, keyChoice) -> new Input(switch (keyChoice) {
          case 0 -> null;
          case 1 -> "d:1:3";
          default -> command.getConvId();
        }, EventSerdes.command().encode(command)));
    Arbitrary<Input> unrelated = SampleRecords.events().map(event -> new Input(CONV, EventSerdes.event().encode(event)));
    return Arbitraries.frequencyOf(
        Tuple.of(2, garbage), Tuple.of(4, corrupted), Tuple.of(4, wellEncoded), Tuple.of(1, unrelated))
        .list().ofMinSize(1).ofMaxSize(6);
  }

  // Commands near validity: real conversations and callers, hostile fields.
  private static Arbitrary<Command> commands() {
    Arbitrary<String> text = Arbitraries.oneOf(SampleRecords.texts(),
        Arbitraries.of("a\u0000b", "\u0000", "x".repeat(MAX_CONTENT + 1), "é".repeat(MAX_CONTENT / 2 + 1), "ok"));
    Arbitrary<Long> seq = Arbitraries.oneOf(Arbitraries.longs(),
        Arbitraries.of(-1L, 0L, 1L, 2L, Long.MAX_VALUE, Long.MIN_VALUE));
    Arbitrary<Object> payload = Arbitraries.oneOf(
        Combinators.combine(text, Arbitraries.of(MessageType.class), text, attachments(text).injectNull(0.6),
                seq.injectNull(0.5), seq.list().ofMaxSize(3))
            .as(SendMessage::new),
        Combinators.combine(seq, text).as(EditMessage::new),
        Combinators.combine(seq, text, Arbitraries.of(true, false)).as(SetReaction::new),
        seq.map(RecallMessage::new), seq.map(AckCursor::new), seq.map(ReportRead::new), text.map(UpdateDraft::new),
        Combinators.combine(seq.list().ofMaxSize(3), seq.list().ofMaxSize(3), text.injectNull(0.5)).as(ChangeMembership::new));
    return Combinators.combine(Arbitraries.of(CONV, "g:team", "d:1:3", "d:2:1", "g:", ""),
            Arbitraries.of(1L, 2L, 3L, 0L, -1L), Arbitraries.of("phone", "laptop", "", "bad device"), payload)
        .as((convId, userId, deviceId, body) ->
            new Command("cmd-" + SENT.incrementAndGet(), convId, userId, deviceId, 1L, body));
  }

  // Remembers each conversation's latest seq, and fails on a text PostgreSQL could not store.
  private static void recordStorable(Event event) {
    Object payload = event.getPayload();
    // Every event that appends a message or a notice (edits and reactions too) takes a seq.
    Message message = AppendedMessages.of(payload);
    Stream<String> texts = Stream.of(event.getConvId(), event.getCommandId());
    if (message != null) {
      latestSeqs.merge(message.getConvId(), message.getSeq(), Math::max);
      texts = Stream.concat(texts, Stream.of(message.getContent(), message.getClientMsgId(), message.getSenderDevice()));
    }
    if (payload instanceof DraftUpdated draft) {
      texts = Stream.concat(texts, Stream.of(draft.getText()));
    }
    if (payload instanceof MembershipChanged change && change.getGroupName() != null) {
      texts = Stream.concat(texts, Stream.of(change.getGroupName()));
    }
    texts.forEach(text -> assertThat(text).as("a text of %s", event).doesNotContain("\u0000"));
  }

  // The sender's own keys and others', sizes and types within and beyond the limits, dimensions or not.
  private static Arbitrary<io.seqsync.events.model.Attachment> attachments(Arbitrary<String> text) {
    Arbitrary<String> key = Arbitraries.of(io.seqsync.events.AttachmentRules.newKey(1),
        io.seqsync.events.AttachmentRules.newKey(2), "u/1/", "u/1/../2/0123456789abcdef0123456789abcdef", "");
    Arbitrary<Integer> dimension = Arbitraries.of(-1, 0, 1, 640, Integer.MAX_VALUE).injectNull(0.5);
    return Combinators.combine(key, Arbitraries.of(-1L, 0L, 1L, 1L << 40),
        Arbitraries.of("image/png", "application/pdf", "text/html", ""), text, dimension, dimension)
        .as(io.seqsync.events.model.Attachment::new);
  }
}
