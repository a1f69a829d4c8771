package io.seqsync.events;

import io.seqsync.events.model.AckCursor;
import io.seqsync.events.model.Announcement;
import io.seqsync.events.model.BlockChanged;
import io.seqsync.events.model.ChangeGroupSettings;
import io.seqsync.events.model.ChangeMembership;
import io.seqsync.events.model.Command;
import io.seqsync.events.model.CommandRejected;
import io.seqsync.events.model.CursorAdvanced;
import io.seqsync.events.model.DraftUpdated;
import io.seqsync.events.model.DuplicateCommand;
import io.seqsync.events.model.Event;
import io.seqsync.events.model.GroupRolesChanged;
import io.seqsync.events.model.GroupSettingsChanged;
import io.seqsync.events.model.MembershipChanged;
import io.seqsync.events.model.Message;
import io.seqsync.events.model.MessageAppended;
import io.seqsync.events.model.MessageType;
import io.seqsync.events.model.OutcomeKind;
import io.seqsync.events.model.ReadAdvanced;
import io.seqsync.events.model.RecallApplied;
import io.seqsync.events.model.RecallMessage;
import io.seqsync.events.model.RejectReason;
import io.seqsync.events.model.ReportRead;
import io.seqsync.events.model.RoleChange;
import io.seqsync.events.model.SendMessage;
import io.seqsync.events.model.EditMessage;
import io.seqsync.events.model.SetReaction;
import io.seqsync.events.model.MessageEdited;
import io.seqsync.events.model.ReactionChanged;
import io.seqsync.events.model.SetBlock;
import io.seqsync.events.model.SetGroupRole;
import io.seqsync.events.model.StoredOutcome;
import io.seqsync.events.model.UpdateDraft;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * jqwik generators of well-formed records of every record type and payload, to encode and then
 * mutate (shared with other modules' tests).
 */
public final class SampleRecords {
  private SampleRecords() {}

  /** Commands of every payload type, with arbitrary (not necessarily valid) field values. */
  public static Arbitrary<Command> commands() {
    Arbitrary<String> text = texts();
    Arbitrary<Long> number = Arbitraries.longs();
    Arbitrary<Object> payload = Arbitraries.oneOf(
        Combinators.combine(text, Arbitraries.of(MessageType.class), text, number.injectNull(0.5),
            number.list().ofMaxSize(3)).as((clientMsgId, type, content, replyTo, mentions) ->
                new SendMessage(clientMsgId, type, content, null, replyTo, mentions)),
        number.map(RecallMessage::new),
        number.map(AckCursor::new),
        number.map(ReportRead::new),
        text.map(UpdateDraft::new),
        Combinators.combine(number.list().ofMaxSize(5), number.list().ofMaxSize(5), text.injectNull(0.5))
            .as(ChangeMembership::new),
        Combinators.combine(number, text).as(SetGroupRole::new),
        Arbitraries.of(true, false).injectNull(0.3).map(ChangeGroupSettings::new),
        Arbitraries.of(true, false).map(SetBlock::new),
        Combinators.combine(number, text).as(EditMessage::new),
        Combinators.combine(number, text, Arbitraries.of(true, false)).as(SetReaction::new));
    return Combinators.combine(text, text, number, text, number, payload).as(Command::new);
  }

  /** Events of every payload type. */
  public static Arbitrary<Event> events() {
    Arbitrary<String> text = texts();
    Arbitrary<Long> number = Arbitraries.longs();
    Arbitrary<Message> message = Combinators.combine(number, text, number, number, text, text,
            Arbitraries.of(MessageType.class), text)
        .as((msgId, convId, seq, sender, device, clientMsgId, type, content) ->
            Message.newBuilder().setMsgId(msgId).setConvId(convId).setSeq(seq).setSenderId(sender)
                .setSenderDevice(device).setClientMsgId(clientMsgId).setType(type).setContent(content)
                .setCreateTime(1_700_000_000_000L).build());
    Arbitrary<List<RoleChange>> roleChanges =
        Combinators.combine(number, text).as(RoleChange::new).list().ofMaxSize(3);
    Arbitrary<Object> payload = Arbitraries.oneOf(
        message.map(MessageAppended::new),
        Combinators.combine(message, number).as(RecallApplied::new),
        Combinators.combine(number, text, number).as(CursorAdvanced::new),
        Combinators.combine(number, text, number).as(ReadAdvanced::new),
        Combinators.combine(number, text, text).as(DraftUpdated::new),
        Combinators.combine(message, number.list().ofMaxSize(5), number.list().ofMaxSize(5), text.injectNull(0.5),
                roleChanges)
            .as(MembershipChanged::new),
        Combinators.combine(message, roleChanges).as(GroupRolesChanged::new),
        Combinators.combine(message, Arbitraries.of(true, false)).as(GroupSettingsChanged::new),
        Combinators.combine(number, number, Arbitraries.of(true, false)).as(BlockChanged::new),
        Combinators.combine(Arbitraries.of(RejectReason.class), text).as(CommandRejected::new),
        Combinators.combine(message, number, text).as(MessageEdited::new),
        Combinators.combine(message, number, text, Arbitraries.of(true, false)).as(ReactionChanged::new));
    return Combinators.combine(text, text, number, payload).as(Event::new);
  }

  public static Arbitrary<DuplicateCommand> duplicates() {
    return Combinators.combine(texts(), texts(), Arbitraries.longs(), Arbitraries.longs()).as(DuplicateCommand::new);
  }

  public static Arbitrary<Announcement> announcements() {
    Arbitrary<Long> number = Arbitraries.longs();
    return Combinators.combine(Arbitraries.of(OutcomeKind.class), texts(), texts(), number, number, number, texts())
        .as(StoredOutcome::new).list().ofMaxSize(4).map(Announcement::new);
  }

  /** Short strings from all of Unicode, and some ids as the system writes them. */
  public static Arbitrary<String> texts() {
    return Arbitraries.oneOf(Arbitraries.strings().ofMaxLength(12),
        Arbitraries.of("d:1:2", "g:team", "phone", "c-1", ""));
  }
}
