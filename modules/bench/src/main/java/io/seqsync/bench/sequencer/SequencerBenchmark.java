package io.seqsync.bench.sequencer;

import io.seqsync.bench.Bench;
import io.seqsync.bench.BenchSupport;
import io.seqsync.bench.Result;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import io.seqsync.config.ConfigLoader;
import io.seqsync.config.KafkaConnection;
import io.seqsync.config.SeqsyncConfig;
import io.seqsync.consumers.TopicAdmin;
import io.seqsync.events.Topics;
import io.seqsync.localstack.EmbeddedKafka;
import io.seqsync.sequencer.SequencerService;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.kafka.common.TopicPartition;

/**
 * Sequencer throughput next to its reference, in one JVM on one embedded broker:
 *
 * <ol>
 *   <li>loads N send commands (default 200,000 over 1,000 direct conversations) into the commands
 *       topic with a plain idempotent producer, timing it (the raw producer rate);
 *   <li>runs the references of {@link ReferenceTopologies} over them: a bytes-in/bytes-out
 *       exactly-once Kafka Streams passthrough, the same decoding and encoding the Avro records,
 *       and that again numbering each conversation in a changelogged store;
 *   <li>runs the sequencer ({@link SequencerService}) over the same commands;
 * </ol>
 *
 * and repeats them (odd repeats in that order, even ones reversed), each run with a fresh application id so it
 * reads the commands from the beginning with empty state. A run is timed from the call that starts
 * the application until its committed input offsets reach the end (see {@link BenchmarkRunner});
 * its outputs are then read back with read_committed and checked. An untimed warm-up round first
 * warms the JIT and creates the broker's internal topics.
 */
@Command(name = "bench-sequencer", mixinStandardHelpOptions = true)
public final class SequencerBenchmark extends Bench {
  private static final long SETTLE_MS = 5_000;
  private static final String TOPIC_PREFIX = "seqsync.";

  @Option(names = "--commands", description = "send commands loaded (default: ${DEFAULT-VALUE})") int commands = 200_000;
  @Option(names = "--conversations", description = "default: ${DEFAULT-VALUE}") int conversations = 1_000;
  @Option(names = "--partitions", description = "default: ${DEFAULT-VALUE}") int partitions = 6;
  @Option(names = "--threads", description = "stream threads (default: ${DEFAULT-VALUE})") int threads = 1;
  @Option(names = "--repeats", description = "default: ${DEFAULT-VALUE}") int repeats = 3;
  @Option(names = "--warmup", description = "untimed rounds of every application first (default: ${DEFAULT-VALUE})")
  int warmupPairs = 1;
  @Option(names = "--commit-interval-ms", description = "default: ${DEFAULT-VALUE}") long commitIntervalMs = 100;
  @Option(names = "--dir", description = "keeps the broker's data there (default: a temporary directory, deleted)") Path dir;

  private transient BenchmarkRunner runner;
  private transient Path dataDir;

  /** The measured applications, in the order of an odd repeat; the first is the base of every ratio. */
  enum App {
    PASSTHROUGH("passthrough", 'P'),
    AVRO("avro-passthrough", 'A'),
    COUNTER("avro-counter", 'C'),
    SEQUENCER("sequencer", 'S');

    final String label;
    final char letter;

    App(String label, char letter) {
      this.label = label;
      this.letter = letter;
    }

    /** Whether its output is MessageAppended events numbered 1..n in each conversation. */
    boolean numbers() {
      return this == COUNTER || this == SEQUENCER;
    }
  }

  /** One measured run and what its read-back found. */
  record Run(String repeat, String order, App app, BenchmarkRunner.Measured measured, String check) {}

  /** The topics: the commands, the sequencer's events, and each reference's output. */
  record DataSet(Topics topics, Map<App, String> outputs) {}

  public static void main(String[] args) {
    Bench.main(new SequencerBenchmark(), args);
  }

  @Override
  protected boolean measure() {
    Path root = (dir != null ? dir : temporaryDirectory()).toAbsolutePath();
    try (EmbeddedKafka kafka = EmbeddedKafka.start(root.resolve("kafka"), 0);
        BenchmarkRunner started = new BenchmarkRunner(kafka.bootstrapServers())) {
      runner = started;
      dataDir = root;
      return runAll();
    } finally {
      if (dir == null) {
        BenchSupport.deleteTree(root);
      }
    }
  }

  private boolean runAll() {
    DataSet data = dataSet();
    CommandLoader.Loaded loaded =
        CommandLoader.load(runner.bootstrapServers(), data.topics().commands().name(), commands, conversations);
    System.err.printf("loaded %,d commands (%,d bytes) at %,.0f records/s%n", loaded.records(), loaded.bytes(), loaded.recordsPerSecond());
    rows.add(Result.row("app", "raw producer", "records", loaded.records(), "recordsPerSecond", (long) loaded.recordsPerSecond()));
    settle();

    // Untimed pairs over the same commands: they warm the JIT, create the broker's internal topics
    // and take whatever the first reads after the load cost.
    for (int warmup = 1; warmup <= warmupPairs; warmup++) {
      for (App app : App.values()) {
        Run run = measure(data, "w" + warmup, "-", app);
        System.err.printf("warm-up %d %-16s %,10.0f records/s; %s%n", warmup, app.label, run.measured().recordsPerSecond(), run.check());
      }
    }

    Map<App, List<Double>> rates = new EnumMap<>(App.class);
    boolean ok = true;
    for (int repeat = 1; repeat <= repeats; repeat++) {
      List<App> order = new ArrayList<>(List.of(App.values()));
      if (repeat % 2 == 0) {
        Collections.reverse(order);
      }
      String orderLabel = order.stream().map(app -> String.valueOf(app.letter)).collect(Collectors.joining(","));
      for (App app : order) {
        System.err.printf("repeat %d: %s ...%n", repeat, app.label);
        Run run = measure(data, String.valueOf(repeat), orderLabel, app);
        BenchmarkRunner.Measured m = run.measured();
        System.err.printf("  %,.0f records/s; %s%n", m.recordsPerSecond(), run.check());
        ok &= run.check().startsWith("OK");
        rates.computeIfAbsent(app, a -> new ArrayList<>()).add(m.recordsPerSecond());
        rows.add(Result.row("repeat", repeat, "order", orderLabel, "app", app.label, "records", m.records(),
            "toRunningS", m.toRunningNanos() / 1e9, "toCommittedS", m.toCommittedNanos() / 1e9,
            "recordsPerSecond", (long) m.recordsPerSecond(), "recordsPerSecondAfterRunning", (long) m.recordsPerSecondAfterRunning(),
            "appThreadsCpuS", m.appThreadCpuNanos() / 1e9, "jvmCpuS", m.processCpuNanos() / 1e9,
            "otherProcessesCpuS", m.otherProcessesCpuNanos() / 1e9, "check", run.check()));
      }
    }
    double base = median(rates.get(App.PASSTHROUGH));
    rates.forEach((app, each) -> rows.add(Result.row("app", app.label, "medianRecordsPerSecond", (long) median(each),
        "percentOfPassthrough", Math.round(1000 * median(each) / base) / 10.0)));
    return ok;
  }

  static double median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  /**
   * Lets the loader's garbage be collected and the broker finish its post-load work before the
   * first timed run, which would otherwise pay for both.
   */
  private static void settle() {
    System.gc();
    BenchSupport.sleep(SETTLE_MS);
  }

  private DataSet dataSet() {
    SeqsyncConfig config = config("unused");
    Topics topics = Topics.from(config.kafka());
    TopicAdmin.ensure(KafkaConnection.plain(runner.bootstrapServers()), topics, config.kafka().replicationFactor());
    Map<App, String> outputs = new EnumMap<>(App.class);
    for (App app : App.values()) {
      outputs.put(app, app == App.SEQUENCER ? topics.events().name() : TOPIC_PREFIX + "bench." + app.label);
      if (app != App.SEQUENCER) {
        runner.createTopic(outputs.get(app), partitions);
      }
    }
    return new DataSet(topics, outputs);
  }

  /** The configuration both applications are built from; only the application id differs. */
  private SeqsyncConfig config(String applicationId) {
    return ConfigLoader.of(Map.of(
        "data-dir", dataDir.toString(),
        "kafka.topic-prefix", TOPIC_PREFIX,
        "kafka.partitions", String.valueOf(partitions),
        "sequencer.application-id", applicationId,
        "sequencer.stream-threads", String.valueOf(threads),
        "sequencer.commit-interval", commitIntervalMs + "ms"));
  }

  private Run measure(DataSet data, String repeat, String order, App app) {
    String applicationId = "bench-r" + repeat + "-" + app.label;
    SeqsyncConfig config = config(applicationId);
    String input = data.topics().commands().name();
    String output = data.outputs().get(app);
    Map<TopicPartition, Long> inputEnd = runner.endOffsets(input, partitions);
    Map<TopicPartition, Long> outputBefore = runner.endOffsets(output, partitions);
    long expected = BenchmarkRunner.sum(inputEnd);

    BenchmarkRunner.Measured measured = runner.measure(app.label, applicationId, inputEnd, output, () -> switch (app) {
      case PASSTHROUGH -> ReferenceApp.start(runner.bootstrapServers(), config, ReferenceTopologies.bytes(input, output));
      case AVRO -> ReferenceApp.start(runner.bootstrapServers(), config, ReferenceTopologies.avro(input, output));
      case COUNTER -> ReferenceApp.start(runner.bootstrapServers(), config, ReferenceTopologies.counter(input, output));
      case SEQUENCER -> new SequencerApp(SequencerService.start(KafkaConnection.plain(runner.bootstrapServers()), config));
    });

    // Only what was committed when the run was declared done counts.
    Map<TopicPartition, Long> outputAfter = measured.outputEndAtCommitted();
    long outputOffsets = BenchmarkRunner.sum(BenchmarkRunner.minus(outputAfter, outputBefore));
    String check;
    if (app.numbers()) {
      OutputCheck.SequencedEvents events = new OutputCheck.SequencedEvents();
      long read = OutputCheck.read(runner.bootstrapServers(), outputBefore, outputAfter, events);
      String problems = events.problems(expected, conversations);
      check = (problems.isEmpty() ? "OK: " : "PROBLEM: " + problems + " ") + String.format(
          "%,d MessageAppended committed when the timing stopped, seqs 1..n in each conversation (%,d commit markers); changelog records: %s",
          events.appended(), outputOffsets - read, changelogRecords(applicationId));
    } else {
      long read = OutputCheck.read(runner.bootstrapServers(), outputBefore, outputAfter, record -> { });
      check = (read == expected ? "OK: " : "PROBLEM: ") + String.format(
          "%,d records committed when the timing stopped (%,d commit markers)", read, outputOffsets - read);
    }
    return new Run(repeat, order, app, measured, check);
  }

  /** Records per changelog topic of the application: the state writes the run committed. */
  private String changelogRecords(String applicationId) {
    Map<String, Long> counts = new TreeMap<>();
    String prefix = applicationId + "-";
    runner.topicsStartingWith(prefix).forEach((topic, partitions) -> {
      Map<TopicPartition, Long> end = runner.endOffsets(topic, partitions);
      long records = OutputCheck.read(runner.bootstrapServers(), Map.of(), end, record -> { });
      counts.put(topic.substring(prefix.length()).replace("-changelog", ""), records);
    });
    return counts.toString();
  }

  /** The sequencer as a measured application. */
  private record SequencerApp(SequencerService service) implements BenchmarkRunner.RunningApp {
    @Override
    public boolean failed() {
      return BenchmarkRunner.RunningApp.failed(service.state());
    }

    @Override
    public void close() {
      service.close();
    }
  }

  private static Path temporaryDirectory() {
    try {
      return Files.createTempDirectory("seqsync-bench-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
