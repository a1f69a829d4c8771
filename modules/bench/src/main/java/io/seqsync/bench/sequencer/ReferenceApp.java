package io.seqsync.bench.sequencer;

import io.seqsync.bench.BenchSupport;

import io.seqsync.config.KafkaConnection;
import io.seqsync.config.SeqsyncConfig;
import io.seqsync.sequencer.SequencerService;
import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;

/**
 * A reference application ({@link ReferenceTopologies}) as a measured run. Its settings are the
 * sequencer's own ({@link SequencerService#streamsProperties}: exactly_once_v2, the same commit
 * interval, stream threads, replication factor, session timeout, producer batch size and the
 * rest); only the application id (from the config) and the state directory differ.
 */
final class ReferenceApp implements BenchmarkRunner.RunningApp {
  private final KafkaStreams streams;

  private ReferenceApp(KafkaStreams streams) {
    this.streams = streams;
  }

  /** The sequencer's own Streams configuration for {@code config}, with the state under dataDir/reference-streams. */
  static Properties properties(String bootstrapServers, SeqsyncConfig config) {
    Properties props = SequencerService.streamsProperties(KafkaConnection.plain(bootstrapServers), config);
    props.put(StreamsConfig.STATE_DIR_CONFIG, config.dataDir().resolve("reference-streams").toString());
    return props;
  }

  /** Starts {@code topology} and returns once it is RUNNING (polled every 50 ms, like SequencerService). */
  static ReferenceApp start(String bootstrapServers, SeqsyncConfig config, Topology topology) {
    KafkaStreams streams = new KafkaStreams(topology, properties(bootstrapServers, config));
    streams.setUncaughtExceptionHandler(
        error -> StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
    streams.start();
    long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    while (streams.state() != KafkaStreams.State.RUNNING) {
      if (streams.state() == KafkaStreams.State.ERROR || streams.state() == KafkaStreams.State.NOT_RUNNING
          || System.nanoTime() > deadline) {
        streams.close(Duration.ofSeconds(30));
        throw new IllegalStateException("reference application did not reach RUNNING, state " + streams.state());
      }
      BenchSupport.sleep(50);
    }
    return new ReferenceApp(streams);
  }
  @Override
  public boolean failed() {
    return BenchmarkRunner.RunningApp.failed(streams.state());
  }

  @Override
  public void close() {
    streams.close(Duration.ofSeconds(30));
  }
}
