package io.seqsync.bench.sequencer;

import io.seqsync.events.EventSerdes;
import io.seqsync.events.model.Command;
import io.seqsync.events.model.Event;
import io.seqsync.events.model.Message;
import io.seqsync.events.model.MessageAppended;
import io.seqsync.events.model.SendMessage;
import io.seqsync.sequencer.SequencerStores;
import io.seqsync.sequencer.StateTable;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The exactly-once applications the sequencer is measured against, each one step closer to it.
 * {@link #bytes} copies records; {@link #avro} also decodes each send command and encodes the
 * {@code MessageAppended} event a sequencer would emit for it (D2's encoding, no state);
 * {@link #counter} also numbers each conversation's events previous + 1 in the sequencer's own
 * state store, its conversation seqs only (persistent, changelogged, uncached: the least state that
 * gives a seq surviving a crash, R3). The last two are floors under any sequencer of this design, not targets:
 * they show how much of the gap to the byte copy the event encoding and the seq state alone cost.
 */
final class ReferenceTopologies {
  private static final String SOURCE = "commands-source";
  private static final String PROCESSOR = "stand-in";
  private static final String SINK = "reference-sink";
  // A realistic 64-bit msgId: milliseconds in the top bits, as MsgIdGenerator lays them out.
  private static final int MSG_ID_TIME_SHIFT = 22;

  private ReferenceTopologies() {}

  /** Source to sink, bytes in and bytes out, no processor and no state. */
  static Topology bytes(String inputTopic, String outputTopic) {
    Topology topology = source(inputTopic);
    topology.addSink(SINK, outputTopic, Serdes.ByteArray().serializer(), Serdes.ByteArray().serializer(), SOURCE);
    return topology;
  }

  /** Decodes each send command and encodes its MessageAppended event, seq 0, no state. */
  static Topology avro(String inputTopic, String outputTopic) {
    return standIn(inputTopic, outputTopic, false);
  }

  /** {@link #avro} plus each conversation's seq, previous + 1, from the sequencer's state store. */
  static Topology counter(String inputTopic, String outputTopic) {
    Topology topology = standIn(inputTopic, outputTopic, true);
    topology.addStateStore(SequencerStores.state(), PROCESSOR);
    return topology;
  }

  private static Topology standIn(String inputTopic, String outputTopic, boolean numbered) {
    Topology topology = source(inputTopic);
    topology.addProcessor(PROCESSOR, () -> new StandIn(numbered), SOURCE);
    topology.addSink(SINK, outputTopic, Serdes.ByteArray().serializer(), Serdes.ByteArray().serializer(), PROCESSOR);
    return topology;
  }

  private static Topology source(String inputTopic) {
    Topology topology = new Topology();
    topology.addSource(SOURCE, Serdes.ByteArray().deserializer(), Serdes.ByteArray().deserializer(), inputTopic);
    return topology;
  }

  /** Send command in, its MessageAppended event out; only sends are loaded by the benchmark. */
  private static final class StandIn implements Processor<byte[], byte[], byte[], byte[]> {
    private final boolean numbered;
    private ProcessorContext<byte[], byte[]> context;
    private StateTable<Long> convSeq;

    StandIn(boolean numbered) {
      this.numbered = numbered;
    }

    @Override
    public void init(ProcessorContext<byte[], byte[]> context) {
      this.context = context;
      if (numbered) {
        convSeq = SequencerStores.convSeq(context.<KeyValueStore<String, byte[]>>getStateStore(SequencerStores.STATE));
      }
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
      Command command = EventSerdes.command().decode(record.value());
      SendMessage send = (SendMessage) command.getPayload();
      long seq = 0;
      if (numbered) {
        Long latest = convSeq.get(command.getConvId());
        seq = (latest == null ? 0 : latest) + 1;
        convSeq.put(command.getConvId(), seq);
      }
      long now = context.currentSystemTimeMs();
      Message message = Message.newBuilder()
          .setMsgId(now << MSG_ID_TIME_SHIFT)
          .setConvId(command.getConvId())
          .setSeq(seq)
          .setSenderId(command.getUserId())
          .setSenderDevice(command.getDeviceId())
          .setClientMsgId(send.getClientMsgId())
          .setType(send.getType())
          .setContent(send.getContent())
          .setCreateTime(now)
          .build();
      Event event = new Event(command.getConvId(), command.getCommandId(), now, new MessageAppended(message));
      context.forward(record.withValue(EventSerdes.event().encode(event)));
    }
  }
}
