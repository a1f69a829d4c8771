package io.seqsync.sequencer;

import static io.seqsync.sequencer.SequencerStores.key;

import io.seqsync.config.SequencerSettings;
import io.seqsync.events.AvroSerde;
import io.seqsync.events.EventSerdes;
import io.seqsync.events.model.AckCursor;
import io.seqsync.events.model.ChangeListSettings;
import io.seqsync.events.model.Command;
import io.seqsync.events.model.CursorAdvanced;
import io.seqsync.events.model.DraftUpdated;
import io.seqsync.events.model.EditMessage;
import io.seqsync.events.model.ListSettingsChanged;
import io.seqsync.events.model.ReadAdvanced;
import io.seqsync.events.model.RecallMessage;
import io.seqsync.events.model.RejectReason;
import io.seqsync.events.model.ReportRead;
import io.seqsync.events.model.SendMessage;
import io.seqsync.events.model.SetBlock;
import io.seqsync.events.model.SetReaction;
import io.seqsync.events.model.UpdateDraft;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Turns commands into events, one conversation partition at a time: decodes and validates each
 * command (what it cannot decode or accept goes to the dead-letter topic), checks group
 * membership, and hands it to the class that owns its kind: {@link MessageSends}, {@link
 * MessageActions}, {@link GroupChanges}, {@link Blocks}; cursors and read positions move forward
 * only through {@link ConversationSeqs}, which gives each appended message the conversation's
 * next seq. Results leave through {@link CommandOutput}. Store errors are never caught: falling
 * back to an empty store would restart a conversation's seq at 1. One instance per stream task, so
 * not shared between threads.
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
  private CommandOutput out;
  private ConversationSeqs seqs;
  private StateTable<Long> cursors;
  private StateTable<Long> reads;
  private GroupRules groups;
  private MessageSends sends;
  private MessageActions actions;
  private GroupChanges groupChanges;
  private Blocks blocks;

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
    out = new CommandOutput(context);
    seqs = new ConversationSeqs(SequencerStores.convSeq(state), msgIdClock(state), out::now);
    cursors = SequencerStores.cursors(state);
    reads = SequencerStores.reads(state);
    groups = new GroupRules(SequencerStores.groups(state), SequencerStores.groupMembers(state),
        SequencerStores.groupAdmins(state), maxGroupMembers);
    sends = new MessageSends(seqs, context.getStateStore(SequencerStores.DEDUP), dedupWindowMs, reads, groups, out);
    actions = new MessageActions(seqs, SequencerStores.recalls(state), SequencerStores.reactions(state), out);
    groupChanges = new GroupChanges(groups, seqs, reads, out);
    blocks = new Blocks(SequencerStores.blocks(state), out);
  }

  // The partition's msgId clock, resumed from the bound it had issued up to.
  private MsgIdClock msgIdClock(KeyValueStore<String, byte[]> state) {
    StateTable<Long> msgIdClock = SequencerStores.msgIdClock(state);
    String partition = String.valueOf(context.taskId().partition());
    Long issuedBound = msgIdClock.get(partition);
    return new MsgIdClock(context.taskId().partition(), issuedBound == null ? 0 : issuedBound,
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
      out.deadLetter(record, e.getMessage());
      return;
    }
    Optional<String> problem = validator.problem(key, command);
    if (problem.isPresent()) {
      out.deadLetter(record, problem.get());
      if (validator.answerable(key, command)) {
        out.reject(command, RejectReason.INVALID_COMMAND, problem.get(), record.timestamp());
      }
      return;
    }
    apply(command, record.timestamp());
  }

  private void apply(Command command, long timestamp) {
    Object payload = command.getPayload();
    if (GroupChanges.handles(payload)) {
      groupChanges.change(command, timestamp);
      return;
    }
    if (payload instanceof SetBlock block) {
      blocks.set(command, block, timestamp);
      return;
    }
    // Direct conversations were checked by the validator (their id names both users).
    boolean system = CommandValidator.systemSend(command);
    if (command.getConvId().startsWith("g:") && !system && !groups.isMember(command.getConvId(), command.getUserId())) {
      out.reject(command, RejectReason.NOT_ALLOWED, "not a member of the group", timestamp);
      return;
    }
    if (payload instanceof SendMessage send) {
      if (!system && blocks.blockedByOther(command)) {
        out.reject(command, RejectReason.BLOCKED, "the other user blocked you", timestamp);
        return;
      }
      sends.send(command, send, timestamp);
    } else if (payload instanceof RecallMessage recall) {
      actions.recall(command, recall, timestamp);
    } else if (payload instanceof AckCursor ack) {
      seqs.advance(cursors, key(command.getUserId(), command.getDeviceId(), command.getConvId()), command, ack.getSeq())
          .ifPresent(seq -> out.emit(command, new CursorAdvanced(command.getUserId(), command.getDeviceId(), seq), timestamp));
    } else if (payload instanceof ReportRead read) {
      seqs.advance(reads, key(command.getUserId(), command.getConvId()), command, read.getSeq())
          .ifPresent(seq -> out.emit(command, new ReadAdvanced(command.getUserId(), command.getDeviceId(), seq), timestamp));
    } else if (payload instanceof UpdateDraft draft) {
      out.emit(command, new DraftUpdated(command.getUserId(), command.getDeviceId(), draft.getText()), timestamp);
    } else if (payload instanceof EditMessage edit) {
      actions.edit(command, edit, timestamp);
    } else if (payload instanceof SetReaction reaction) {
      actions.react(command, reaction, timestamp);
    } else if (payload instanceof ChangeListSettings settings) {
      out.emit(command, new ListSettingsChanged(command.getUserId(), settings.getMuted(), settings.getPinned()), timestamp);
    }
  }
}
