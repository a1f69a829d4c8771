package io.seqsync.sequencer;

import io.seqsync.config.SequencerSettings;
import io.seqsync.events.Topics;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.Topology;

/**
 * The sequencer topology: commands in, events (and duplicate replies, and dead letters) out, all
 * in one exactly-once transaction with the stores. Commands are read as raw bytes so that an
 * undecodable one becomes a dead letter instead of a deserialization failure.
 */
public final class SequencerTopology {
  static final String SOURCE = "commands-source";
  static final String PROCESSOR = "sequencer";

  private SequencerTopology() {}

  public static Topology build(Topics topics, SequencerSettings settings) {
    Topology topology = new Topology();
    topology.addSource(SOURCE, Serdes.ByteArray().deserializer(), Serdes.ByteArray().deserializer(),
        topics.commands().name());
    ThreadLocal<CommitPacer> pacers = ThreadLocal.withInitial(() -> new CommitPacer(settings.commitInterval()));
    topology.addProcessor(PROCESSOR, () -> new CommandProcessor(settings, pacers::get), SOURCE);
    topology.addStateStore(SequencerStores.state(), PROCESSOR);
    topology.addStateStore(SequencerStores.dedup(settings.dedupWindow()), PROCESSOR);
    topology.addSink(CommandProcessor.EVENTS_SINK, topics.events().name(),
        untyped(Serdes.String().serializer()), untyped(topics.events().valueSerde().serializer()), PROCESSOR);
    topology.addSink(CommandProcessor.REPLIES_SINK, topics.replies().name(),
        untyped(Serdes.String().serializer()), untyped(topics.replies().valueSerde().serializer()), PROCESSOR);
    topology.addSink(CommandProcessor.DEAD_LETTER_SINK, topics.deadLetters().name(),
        untyped(Serdes.ByteArray().serializer()), untyped(Serdes.ByteArray().serializer()), PROCESSOR);
    return topology;
  }

  // The processor forwards several record types; each sink receives only its own.
  @SuppressWarnings("unchecked")
  private static Serializer<Object> untyped(Serializer<?> serializer) {
    return (Serializer<Object>) serializer;
  }
}
