package io.seqsync.sequencer;

import io.seqsync.events.model.Command;
import io.seqsync.events.model.CommandRejected;
import io.seqsync.events.model.DuplicateCommand;
import io.seqsync.events.model.Event;
import io.seqsync.events.model.RejectReason;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Where the {@link CommandProcessor}'s results go, all in the task's transaction: events (a
 * rejection is one too) to the event log, the answer to a repeated command to the replies topic,
 * and a record it cannot decode or accept, as it came, to the dead-letter topic with the reason
 * and its source in headers. One per processor, so not shared between threads.
 */
final class CommandOutput {
  private final ProcessorContext<Object, Object> context;

  CommandOutput(ProcessorContext<Object, Object> context) {
    this.context = context;
  }

  /** The stream thread's wall clock: an event's and a message's create time. */
  long now() {
    return context.currentSystemTimeMs();
  }

  void emit(Command command, Object payload, long timestamp) {
    Event event = new Event(command.getConvId(), command.getCommandId(), now(), payload);
    context.forward(new Record<Object, Object>(command.getConvId(), event, timestamp), CommandProcessor.EVENTS_SINK);
  }

  void reject(Command command, RejectReason reason, String detail, long timestamp) {
    emit(command, new CommandRejected(reason, detail), timestamp);
  }

  /** Answers a repeated command with what the original produced. */
  void reply(Command command, ProducedMessage original, long timestamp) {
    DuplicateCommand duplicate =
        new DuplicateCommand(command.getCommandId(), command.getConvId(), original.msgId(), original.seq());
    context.forward(new Record<Object, Object>(command.getConvId(), duplicate, timestamp), CommandProcessor.REPLIES_SINK);
  }

  void deadLetter(Record<byte[], byte[]> record, String reason) {
    RecordHeaders headers = new RecordHeaders(record.headers().toArray());
    headers.add(CommandProcessor.REASON_HEADER, String.valueOf(reason).getBytes(StandardCharsets.UTF_8));
    String source = context.recordMetadata()
        .map(meta -> meta.topic() + "/" + meta.partition() + "@" + meta.offset())
        .orElse("unknown");
    headers.add(CommandProcessor.SOURCE_HEADER, source.getBytes(StandardCharsets.UTF_8));
    context.forward(new Record<Object, Object>(record.key(), record.value(), record.timestamp(), headers),
        CommandProcessor.DEAD_LETTER_SINK);
  }
}
