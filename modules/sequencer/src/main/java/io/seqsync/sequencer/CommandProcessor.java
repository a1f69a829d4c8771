package io.seqsync.sequencer;

import static io.seqsync.sequencer.SequencerStores.key;

import io.seqsync.config.SequencerSettings;
import io.seqsync.events.AvroSerde;
import io.seqsync.events.EventSerdes;
import io.seqsync.events.model.AckCursor;
import io.seqsync.events.ConvId;
import io.seqsync.events.model.BlockChanged;
import io.seqsync.events.model.ChangeGroupSettings;
import io.seqsync.events.model.ChangeListSettings;
import io.seqsync.events.model.ChangeMembership;
import io.seqsync.events.model.Command;
import io.seqsync.events.model.CommandRejected;
import io.seqsync.events.model.CursorAdvanced;
import io.seqsync.events.model.DraftUpdated;
import io.seqsync.events.model.DuplicateCommand;
import io.seqsync.events.model.EditMessage;
import io.seqsync.events.model.Event;
import io.seqsync.events.model.GroupRolesChanged;
import io.seqsync.events.model.GroupSettingsChanged;
import io.seqsync.events.model.ListSettingsChanged;
import io.seqsync.events.model.MembershipChanged;
import io.seqsync.events.model.Message;
import io.seqsync.events.model.MessageAppended;
import io.seqsync.events.model.MessageEdited;
import io.seqsync.events.model.MessageType;
import io.seqsync.events.model.ReactionChanged;
import io.seqsync.events.model.ReadAdvanced;
import io.seqsync.events.model.RecallApplied;
import io.seqsync.events.model.RecallMessage;
import io.seqsync.events.model.RejectReason;
import io.seqsync.events.model.ReportRead;
import io.seqsync.events.model.SendMessage;
import io.seqsync.events.model.SetBlock;
import io.seqsync.events.model.SetGroupRole;
import io.seqsync.events.model.SetReaction;
import io.seqsync.events.model.UpdateDraft;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.WindowStore;

/**
 * Turns commands into events, one conversation partition at a time: gives each appended message
 * the conversation's next seq, answers repeated sends and recalls with what the original produced,
 * moves cursors and read positions forward only, and sends what it cannot decode or accept to the
 * dead-letter topic. Store errors are never caught: falling back to an empty store would restart
 * a conversation's seq at 1. One instance per stream task, so not shared between threads.
 */
final class CommandProcessor implements Processor<byte[], byte[], Object, Object> {
  static final String EVENTS_SINK = "events-sink";
  static final String REPLIES_SINK = "replies-sink";
  static final String DEAD_LETTER_SINK = "dead-letter-sink";
  static final String REASON_HEADER = "seqsync.dlq.reason";
  static final String SOURCE_HEADER = "seqsync.dlq.source";

  private final AvroSerde<Command> commandSerde = EventSerdes.command();
  private final CommandValidator validator;
  private final long dedupWindowMs;
  private final int maxGroupMembers;
  private final Supplier<CommitPacer> threadPacer;

  private ProcessorContext<Object, Object> context;
  private Runnable askForCommit;
  private StateTable<Long> convSeq;
  private WindowStore<String, DedupEntry> dedup;
  private StateTable<ProducedMessage> recalls;
  private StateTable<Long> cursors;
  private StateTable<Long> reads;
  private GroupRules groups;
  private StateTable<Long> blocks;
  private StateTable<ProducedMessage> reactions;
  private MsgIdClock msgIds;

  /** {@code threadPacer}: the calling stream thread's {@link CommitPacer}. */
  CommandProcessor(SequencerSettings settings, Supplier<CommitPacer> threadPacer) {
    this.threadPacer = threadPacer;
    this.validator = new CommandValidator(settings.maxContentBytes(), settings.maxGroupMembers(), settings.attachments());
    this.dedupWindowMs = settings.dedupWindow().toMillis();
    this.maxGroupMembers = settings.maxGroupMembers();
  }

  @Override
  public void init(ProcessorContext<Object, Object> context) {
    this.context = context;
    this.askForCommit = context::commit;
    KeyValueStore<String, byte[]> state = context.getStateStore(SequencerStores.STATE);
    convSeq = SequencerStores.convSeq(state);
    dedup = context.getStateStore(SequencerStores.DEDUP);
    recalls = SequencerStores.recalls(state);
    cursors = SequencerStores.cursors(state);
    reads = SequencerStores.reads(state);
    groups = new GroupRules(SequencerStores.groups(state), SequencerStores.groupMembers(state),
        SequencerStores.groupAdmins(state), maxGroupMembers);
    blocks = SequencerStores.blocks(state);
    reactions = SequencerStores.reactions(state);
    StateTable<Long> msgIdClock = SequencerStores.msgIdClock(state);
    String partition = String.valueOf(context.taskId().partition());
    Long issuedBound = msgIdClock.get(partition);
    msgIds = new MsgIdClock(context.taskId().partition(), issuedBound == null ? 0 : issuedBound,
        bound -> msgIdClock.put(partition, bound));
  }

  @Override
  public void process(Record<byte[], byte[]> record) {
    handle(record);
    threadPacer.get().processed(context.currentSystemTimeMs(), askForCommit);
  }

  private void handle(Record<byte[], byte[]> record) {
    String key = record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
    Command command;
    try {
      command = commandSerde.decode(record.value());
    } catch (SerializationException e) {
      deadLetter(record, e.getMessage());
      return;
    }
    Optional<String> problem = validator.problem(key, command);
    if (problem.isPresent()) {
      deadLetter(record, problem.get());
      if (validator.answerable(key, command)) {
        reject(command, RejectReason.INVALID_COMMAND, problem.get(), record.timestamp());
      }
      return;
    }
    apply(command, record.timestamp());
  }

  private void apply(Command command, long timestamp) {
    Object payload = command.getPayload();
    if (payload instanceof ChangeMembership || payload instanceof SetGroupRole
        || payload instanceof ChangeGroupSettings) {
      changeGroup(command, timestamp);
      return;
    }
    if (payload instanceof SetBlock block) {
      setBlock(command, block, timestamp);
      return;
    }
    // Direct conversations were checked by the validator (their id names both users).
    boolean system = CommandValidator.systemSend(command);
    if (command.getConvId().startsWith("g:") && !system && !groups.isMember(command.getConvId(), command.getUserId())) {
      reject(command, RejectReason.NOT_ALLOWED, "not a member of the group", timestamp);
      return;
    }
    if (payload instanceof SendMessage send) {
      if (!system && blockedByOther(command)) {
        reject(command, RejectReason.BLOCKED, "the other user blocked you", timestamp);
        return;
      }
      send(command, send, timestamp);
    } else if (payload instanceof RecallMessage recall) {
      recall(command, recall, timestamp);
    } else if (payload instanceof AckCursor ack) {
      advance(cursors, key(command.getUserId(), command.getDeviceId(), command.getConvId()), command, ack.getSeq())
          .ifPresent(seq -> emit(command, new CursorAdvanced(command.getUserId(), command.getDeviceId(), seq), timestamp));
    } else if (payload instanceof ReportRead read) {
      advance(reads, key(command.getUserId(), command.getConvId()), command, read.getSeq())
          .ifPresent(seq -> emit(command, new ReadAdvanced(command.getUserId(), command.getDeviceId(), seq), timestamp));
    } else if (payload instanceof UpdateDraft draft) {
      emit(command, new DraftUpdated(command.getUserId(), command.getDeviceId(), draft.getText()), timestamp);
    } else if (payload instanceof EditMessage edit) {
      edit(command, edit, timestamp);
    } else if (payload instanceof SetReaction reaction) {
      react(command, reaction, timestamp);
    } else if (payload instanceof ChangeListSettings settings) {
      emit(command, new ListSettingsChanged(command.getUserId(), settings.getMuted(), settings.getPinned()), timestamp);
    }
  }

  private void changeGroup(Command command, long timestamp) {
    String convId = command.getConvId();
    Object payload = command.getPayload();
    GroupDecision decision = payload instanceof ChangeMembership change
        ? groups.membership(convId, command.getUserId(), change)
        : payload instanceof SetGroupRole role
            ? groups.role(convId, command.getUserId(), role)
            : groups.settings(convId, command.getUserId(), (ChangeGroupSettings) payload);
    if (decision.rejected()) {
      reject(command, decision.rejectReason(), decision.rejectDetail(), timestamp);
      return;
    }
    Message notice = append(command, command.getCommandId(), MessageType.SYSTEM,
        GroupNotices.content(command.getUserId(), payload, decision));
    groups.apply(convId, command.getUserId(), decision, notice.getSeq());
    if (payload instanceof ChangeMembership change) {
      // A new member sees history from their notice on: nothing before it is theirs to read (R20).
      decision.added().forEach(userId -> reads.put(key(userId, convId), notice.getSeq()));
      emit(command, new MembershipChanged(notice, decision.added(), decision.removed(), change.getGroupName(),
          decision.roles()), timestamp);
    } else if (payload instanceof SetGroupRole) {
      emit(command, new GroupRolesChanged(notice, decision.roles()), timestamp);
    } else {
      emit(command, new GroupSettingsChanged(notice, decision.membersCanInvite()), timestamp);
    }
  }

  // The validator checked that the conversation is direct and names the caller.
  private void setBlock(Command command, SetBlock block, long timestamp) {
    String blockKey = key(command.getConvId(), command.getUserId());
    if (block.getBlocked()) {
      blocks.put(blockKey, 1L);
    } else {
      blocks.delete(blockKey);
    }
    emit(command, new BlockChanged(command.getUserId(), otherUser(command), block.getBlocked()), timestamp);
  }

  private boolean isMember(String convId, long userId) {
    return convId.startsWith("g:") ? groups.isMember(convId, userId) : ConvId.parse(convId).orElseThrow().namesUser(userId);
  }

  private boolean blockedByOther(Command command) {
    return command.getConvId().startsWith("d:")
        && blocks.get(key(command.getConvId(), otherUser(command))) != null;
  }

  private static long otherUser(Command command) {
    List<Long> users = ConvId.parse(command.getConvId()).orElseThrow().directUsers();
    return users.get(0) == command.getUserId() ? users.get(1) : users.get(0);
  }

  private void send(Command command, SendMessage send, long timestamp) {
    String dedupKey = key(command.getConvId(), send.getClientMsgId());
    ProducedMessage original = withinDedupWindow(dedupKey, timestamp);
    if (original != null) {
      reply(command, original, timestamp);
      return;
    }
    if (send.getReplyTo() != null && send.getReplyTo() > latestSeq(command.getConvId())) {
      reject(command, RejectReason.NO_SUCH_MESSAGE, "replyTo: no message at seq " + send.getReplyTo(), timestamp);
      return;
    }
    Message message = append(command, send.getClientMsgId(), send.getType(), send.getContent());
    message.setAttachment(send.getAttachment());
    message.setReplyTo(send.getReplyTo());
    // Mentions of users outside the conversation (one who left since) are dropped, not refused.
    message.setMentions(send.getMentions().stream().filter(userId -> isMember(command.getConvId(), userId)).toList());
    dedup.put(dedupKey, new DedupEntry(message.getMsgId(), message.getSeq(), timestamp),
        SequencerStores.dedupBucket(timestamp, dedupWindowMs));
    // A sender has read their own message (R18): no event of its own, the projector derives the
    // same from MessageAppended; the store keeps a later, lower read report from counting.
    if (!CommandValidator.systemSend(command)) {
      reads.put(key(command.getUserId(), command.getConvId()), message.getSeq());
    }
    emit(command, new MessageAppended(message), timestamp);
  }

  private void recall(Command command, RecallMessage recall, long timestamp) {
    if (recall.getSeq() > latestSeq(command.getConvId())) {
      reject(command, RejectReason.NO_SUCH_MESSAGE, "no message at seq " + recall.getSeq(), timestamp);
      return;
    }
    String recallKey = key(command.getConvId(), recall.getSeq());
    ProducedMessage earlierNotice = recalls.get(recallKey);
    if (earlierNotice != null) {
      reply(command, earlierNotice, timestamp);
      return;
    }
    Message notice = append(command, command.getCommandId(), MessageType.RECALL, Long.toString(recall.getSeq()));
    recalls.put(recallKey, new ProducedMessage(notice.getMsgId(), notice.getSeq()));
    // A recalled message takes no more reactions: their entries would only linger.
    reactions.withKeyPrefix(recallKey + '\u0000').forEach(entry -> reactions.delete(entry.getKey()));
    emit(command, new RecallApplied(notice, recall.getSeq()), timestamp);
  }

  // Message actions. The ingress checked the sender, the type and the edit window against the
  // stored message (as for a recall); what only the log's order decides is checked here.
  private void edit(Command command, EditMessage edit, long timestamp) {
    if (!actionable(command, edit.getSeq(), timestamp)) {
      return;
    }
    Message notice = append(command, command.getCommandId(), MessageType.EDIT,
        ActionNotices.edit(edit.getSeq(), edit.getContent()));
    emit(command, new MessageEdited(notice, edit.getSeq(), edit.getContent()), timestamp);
  }

  // One reaction per user, message and emoji: a repeated one is answered with the notice that added it.
  private void react(Command command, SetReaction reaction, long timestamp) {
    if (!actionable(command, reaction.getSeq(), timestamp)) {
      return;
    }
    String reactionKey = key(command.getConvId(), reaction.getSeq(), command.getUserId(), reaction.getEmoji());
    ProducedMessage added = reactions.get(reactionKey);
    if (reaction.getOn() && added != null) {
      reply(command, added, timestamp);
      return;
    }
    if (!reaction.getOn() && added == null) {
      // The emoji is sealed (docs/design.md, "Erasure"): the detail does not repeat it.
      reject(command, RejectReason.NO_SUCH_REACTION, "no such reaction of yours", timestamp);
      return;
    }
    Message notice = append(command, command.getCommandId(), MessageType.REACTION,
        ActionNotices.reaction(reaction.getSeq(), reaction.getEmoji(), reaction.getOn()));
    if (reaction.getOn()) {
      reactions.put(reactionKey, new ProducedMessage(notice.getMsgId(), notice.getSeq()));
    } else {
      reactions.delete(reactionKey);
    }
    emit(command, new ReactionChanged(notice, reaction.getSeq(), reaction.getEmoji(), reaction.getOn()), timestamp);
  }

  // The target exists and was not recalled (a recall keeps its meaning: nothing changes the message after it).
  private boolean actionable(Command command, long seq, long timestamp) {
    if (seq > latestSeq(command.getConvId())) {
      reject(command, RejectReason.NO_SUCH_MESSAGE, "no message at seq " + seq, timestamp);
      return false;
    }
    if (recalls.get(key(command.getConvId(), seq)) != null) {
      reject(command, RejectReason.RECALLED, "the message at seq " + seq + " was recalled", timestamp);
      return false;
    }
    return true;
  }

  /** Appends a message at the conversation's next seq. */
  private Message append(Command command, String clientMsgId, MessageType type, String content) {
    long seq = latestSeq(command.getConvId()) + 1;
    convSeq.put(command.getConvId(), seq);
    long now = context.currentSystemTimeMs();
    long msgId = msgIds.next(now);
    return Message.newBuilder()
        .setMsgId(msgId)
        .setConvId(command.getConvId())
        .setSeq(seq)
        .setSenderId(command.getUserId())
        .setSenderDevice(command.getDeviceId())
        .setClientMsgId(clientMsgId)
        .setType(type)
        .setContent(content)
        .setCreateTime(now)
        .build();
  }

  /**
   * Moves a forward-only position: clamped to the latest seq (an ack beyond it is dirty data),
   * and a move backwards or nowhere is swallowed (R12). Empty when nothing moved.
   */
  private OptionalLong advance(StateTable<Long> positions, String positionKey, Command command, long requested) {
    long target = Math.min(requested, latestSeq(command.getConvId()));
    Long current = positions.get(positionKey);
    if (target <= (current == null ? 0 : current)) {
      return OptionalLong.empty();
    }
    positions.put(positionKey, target);
    return OptionalLong.of(target);
  }

  private long latestSeq(String convId) {
    Long latest = convSeq.get(convId);
    return latest == null ? 0 : latest;
  }

  // An original within ±window of this record's timestamp is filed in this bucket or a neighbour.
  private ProducedMessage withinDedupWindow(String dedupKey, long timestamp) {
    long bucket = SequencerStores.dedupBucket(timestamp, dedupWindowMs);
    for (long start : new long[] {bucket, bucket - dedupWindowMs, bucket + dedupWindowMs}) {
      DedupEntry entry = start < 0 ? null : dedup.fetch(dedupKey, start);
      if (entry != null && Math.abs(entry.timestamp() - timestamp) <= dedupWindowMs) {
        return entry.produced();
      }
    }
    return null;
  }

  private void emit(Command command, Object payload, long timestamp) {
    Event event = new Event(command.getConvId(), command.getCommandId(), context.currentSystemTimeMs(), payload);
    context.forward(new Record<Object, Object>(command.getConvId(), event, timestamp), EVENTS_SINK);
  }

  private void reject(Command command, RejectReason reason, String detail, long timestamp) {
    emit(command, new CommandRejected(reason, detail), timestamp);
  }

  private void reply(Command command, ProducedMessage original, long timestamp) {
    DuplicateCommand duplicate =
        new DuplicateCommand(command.getCommandId(), command.getConvId(), original.msgId(), original.seq());
    context.forward(new Record<Object, Object>(command.getConvId(), duplicate, timestamp), REPLIES_SINK);
  }

  private void deadLetter(Record<byte[], byte[]> record, String reason) {
    RecordHeaders headers = new RecordHeaders(record.headers().toArray());
    headers.add(REASON_HEADER, String.valueOf(reason).getBytes(StandardCharsets.UTF_8));
    String source = context.recordMetadata()
        .map(meta -> meta.topic() + "/" + meta.partition() + "@" + meta.offset())
        .orElse("unknown");
    headers.add(SOURCE_HEADER, source.getBytes(StandardCharsets.UTF_8));
    context.forward(new Record<Object, Object>(record.key(), record.value(), record.timestamp(), headers), DEAD_LETTER_SINK);
  }
}
