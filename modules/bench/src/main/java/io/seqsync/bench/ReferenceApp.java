package io.seqsync.bench;

import io.seqsync.config.SeqsyncConfig;
import io.seqsync.sequencer.SequencerService;
import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;

/**
 * The reference: the cheapest exactly-once Kafka Streams application over the same commands,
 * bytes in and bytes out, no processor, no state. Its settings are the sequencer's own
 * ({@link SequencerService#streamsProperties}: exactly_once_v2, the same commit interval, stream
 * threads, replication factor, session timeout, producer batch size and the rest); only the
 * application id (from the config) and the state directory differ.
 */
final class PassthroughApp implements BenchmarkRunner.RunningApp {
  private final KafkaStreams streams;

  private PassthroughApp(KafkaStreams streams) {
    this.streams = streams;
  }

  static Topology topology(String inputTopic, String outputTopic) {
    Topology topology = new Topology();
    topology.addSource("commands-source", Serdes.ByteArray().deserializer(), Serdes.ByteArray().deserializer(), inputTopic);
    topology.addSink("passthrough-sink", outputTopic,
        Serdes.ByteArray().serializer(), Serdes.ByteArray().serializer(), "commands-source");
    return topology;
  }

  /** The sequencer's own Streams configuration for {@code config}, with the state under dataDir/passthrough-streams. */
  static Properties properties(String bootstrapServers, SeqsyncConfig config) {
    Properties props = SequencerService.streamsProperties(bootstrapServers, config);
    props.put(StreamsConfig.STATE_DIR_CONFIG, config.dataDir().resolve("passthrough-streams").toString());
    return props;
  }

  /** Starts the passthrough and returns once it is RUNNING (polled every 50 ms, like SequencerService). */
  static PassthroughApp start(String bootstrapServers, SeqsyncConfig config, String inputTopic, String outputTopic) {
    KafkaStreams streams = new KafkaStreams(topology(inputTopic, outputTopic), properties(bootstrapServers, config));
    streams.setUncaughtExceptionHandler(
        error -> StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
    streams.start();
    long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    while (streams.state() != KafkaStreams.State.RUNNING) {
      if (streams.state() == KafkaStreams.State.ERROR || streams.state() == KafkaStreams.State.NOT_RUNNING
          || System.nanoTime() > deadline) {
        streams.close(Duration.ofSeconds(30));
        throw new IllegalStateException("passthrough did not reach RUNNING, state " + streams.state());
      }
      BenchSupport.sleep(50);
    }
    return new PassthroughApp(streams);
  }

  @Override
  public boolean failed() {
    KafkaStreams.State state = streams.state();
    return state == KafkaStreams.State.ERROR || state == KafkaStreams.State.NOT_RUNNING
        || state == KafkaStreams.State.PENDING_ERROR || state == KafkaStreams.State.PENDING_SHUTDOWN;
  }

  @Override
  public void close() {
    streams.close(Duration.ofSeconds(30));
  }
}
