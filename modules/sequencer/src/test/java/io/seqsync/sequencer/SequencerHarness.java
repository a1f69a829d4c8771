package io.seqsync.sequencer;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqsync.config.ConfigLoader;
import io.seqsync.config.SeqsyncConfig;
import io.seqsync.events.EventSerdes;
import io.seqsync.events.Topics;
import io.seqsync.events.model.Command;
import io.seqsync.events.model.CommandRejected;
import io.seqsync.events.model.DuplicateCommand;
import io.seqsync.events.model.Event;
import io.seqsync.events.model.RejectReason;
import io.seqsync.localstack.TemporaryDirectory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;

/** The sequencer topology in a TopologyTestDriver, with typed access to its topics. */
final class SequencerHarness implements AutoCloseable {
  static final Instant T0 = Instant.parse("2026-11-01T00:00:00Z");

  final SeqsyncConfig config;
  final TopologyTestDriver driver;
  private final Path stateDir = newStateDir();
  private final TestInputTopic<byte[], byte[]> commands;
  private final TestOutputTopic<String, Event> events;
  private final TestOutputTopic<String, DuplicateCommand> replies;
  private final TestOutputTopic<byte[], byte[]> deadLetters;

  SequencerHarness() {
    this(Map.of("sequencer.max-content-bytes", "1024"));
  }

  SequencerHarness(Map<String, String> settings) {
    config = ConfigLoader.of(settings);
    Topics topics = Topics.from(config.kafka());
    Properties props = new Properties();
    props.put(StreamsConfig.APPLICATION_ID_CONFIG, "sequencer-test");
    props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    // A state directory of its own: drivers of other tests (or other builds) never share RocksDB locks.
    props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    driver = new TopologyTestDriver(SequencerTopology.build(topics, config.sequencer()), props, T0);
    commands = driver.createInputTopic(topics.commands().name(),
        Serdes.ByteArray().serializer(), Serdes.ByteArray().serializer());
    events = driver.createOutputTopic(topics.events().name(),
        Serdes.String().deserializer(), EventSerdes.event().deserializer());
    replies = driver.createOutputTopic(topics.replies().name(),
        Serdes.String().deserializer(), EventSerdes.duplicate().deserializer());
    deadLetters = driver.createOutputTopic(topics.deadLetters().name(),
        Serdes.ByteArray().deserializer(), Serdes.ByteArray().deserializer());
  }

  /** Pipes a command keyed by its convId at {@code timestamp}. */
  void pipe(Command command, Instant timestamp) {
    pipeRaw(command.getConvId(), EventSerdes.command().encode(command), timestamp);
  }

  void pipe(Command command) {
    pipe(command, T0);
  }

  void pipeRaw(String key, byte[] value, Instant timestamp) {
    commands.pipeInput(key == null ? null : key.getBytes(StandardCharsets.UTF_8), value, timestamp);
  }

  private static Path newStateDir() {
    try {
      return Files.createTempDirectory("sequencer-test-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  List<Event> events() {
    return events.readValuesToList();
  }

  /** The one event piped since the last read. */
  Event single() {
    List<Event> read = events();
    assertThat(read).hasSize(1);
    return read.get(0);
  }

  /** The reason of a rejection event. */
  static RejectReason rejection(Event event) {
    assertThat(event.getPayload()).isInstanceOf(CommandRejected.class);
    return ((CommandRejected) event.getPayload()).getReason();
  }

  List<DuplicateCommand> replies() {
    return replies.readValuesToList();
  }

  List<TestRecord<byte[], byte[]>> deadLetters() {
    return deadLetters.readRecordsToList();
  }

  @Override
  public void close() {
    driver.close();
    TemporaryDirectory.deleteTree(stateDir);
  }
}
