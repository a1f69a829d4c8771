package io.seqsync.bench.http;

import io.seqsync.analytics.TopicScan;
import io.seqsync.analytics.TrafficReport;
import io.seqsync.app.SeqsyncApp;
import io.seqsync.bench.BenchSupport;
import io.seqsync.bench.CliOptions;
import io.seqsync.config.ConfigLoader;
import io.seqsync.config.KafkaConnection;
import io.seqsync.config.LimitsSettings;
import io.seqsync.config.SeqsyncConfig;
import io.seqsync.events.Topic;
import io.seqsync.events.Topics;
import io.seqsync.events.model.Event;
import io.seqsync.localstack.LocalStack;
import io.seqsync.ingress.commands.CommandSealing;
import io.seqsync.projector.replay.ProjectionReplay;
import io.seqsync.store.Database;
import io.seqsync.store.keys.ContentKeys;
import io.seqsync.store.keys.ContentSealer;
import io.seqsync.store.keys.MasterKeys;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.serialization.Serdes;

/**
 * How long {@code seqsync replay} takes to rebuild the projection of an event log, and {@code
 * seqsync analytics} to report on it, next to the floor of both measured in the same run: a plain
 * {@code read_committed} read of the same log from offset 0 to its end, decoding nothing, writing
 * nothing. The log is made as the
 * fetch benchmark makes its data (direct conversations, every message a send command through the
 * sequencer and the live projector, whose time is reported too). Markdown on stdout.
 */
public final class ReplayBenchmark {
  static final String USAGE = """
      usage: ReplayBenchmark [--conversations=200] [--messages=1000] [--repeats=3] [--encryption=on] [--dir=PATH] [--fsync=on]
        --conversations x --messages: the history, sent through the commands topic.
        --repeats: replays (each empties the projection and rebuilds it), each after a read of the log.
        --encryption: on (every content sealed as the ingress seals it: the replay opens each) or off.
        --dir: keep the data there (default: a temporary directory, deleted at the end).
        --fsync=on: the embedded PostgreSQL flushes its WAL to disk, as a production server does (default off).""";
  private static final Set<String> NAMES = Set.of("conversations", "messages", "repeats", "encryption", "dir", "fsync");

  private ReplayBenchmark() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> given = CliOptions.parseOrExit(args, arguments -> CliOptions.parse(arguments, NAMES), USAGE);
    int conversations = HttpBenchOptions.positive(given, "conversations", 200);
    int messages = HttpBenchOptions.positive(given, "messages", 1_000);
    int repeats = HttpBenchOptions.positive(given, "repeats", 3);
    BenchSupport.quietLogs();
    Path dir = HttpBenchOptions.value(given, "dir").map(Path::of).orElse(Files.createTempDirectory("seqsync-bench-replay-"));
    Map<String, String> settings = new HashMap<>(Map.of("data-dir", dir.toString(), "kafka.embedded-port", "0",
        "postgres.embedded-port", "0", "redis.embedded-port", "0", "http.port", "0", "archive.interval", "0s",
        "postgres.embedded-fsync", Boolean.toString("on".equals(given.get("fsync")))));
    settings.putAll(LimitsSettings.raisedTo(100_000)); // it sends far faster than people
    boolean encrypted = !HttpBenchOptions.value(given, "encryption").orElse("on").equals("off");
    settings.put("crypto.encrypt-content", Boolean.toString(encrypted));
    SeqsyncConfig config = ConfigLoader.of(settings);
    try {
      double live;
      try (SeqsyncApp app = SeqsyncApp.start(config)) {
        System.err.printf("   sending %,d conversations x %,d messages through the commands topic%n", conversations, messages);
        try (Database keys = Database.open(app.stack().postgresJdbcUrl(), app.stack().postgresUser(),
                app.stack().postgresPassword(), 2);
            ContentSealer sealer = new ContentSealer(new ContentKeys(keys.jdbi(),
                MasterKeys.load(config.erasure(), config.dataDir())))) {
          CommandSealing sealing = encrypted ? new CommandSealing(sealer) : CommandSealing.NONE;
          live = new FetchBenchmark(conversations, messages, 1).preload(app.stack().kafkaBootstrapServers(),
              Topics.from(config.kafka()).commands(), app.stack().postgresJdbcUrl(), app.stack().postgresUser(),
              app.stack().postgresPassword(), sealing::seal);
        }
      }
      long total = (long) conversations * messages;
      System.out.printf("Replay of %,d messages (%,d conversations x %,d, content %s), PostgreSQL fsync %s, load average %s;"
          + " sent, sequenced and projected live in %.1f s (%,.0f messages/s).%n%n", total, conversations, messages,
          encrypted ? "sealed" : "plain", config.postgres().embeddedFsync() ? "on" : "off", BenchSupport.loadAverage(),
          live, total / live);
      System.out.println("| repeat | read_committed read of the log | records/s | analytics report | events/s | report ÷ read"
          + " | replay (empty, project, delivery) | messages/s | replay ÷ read |");
      System.out.println("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
      for (int repeat = 1; repeat <= repeats; repeat++) {
        Reads reads = readWholeLog(config, total);
        ProjectionReplay.Summary replay = ProjectionReplay.run(config);
        if (replay.messages() != total) {
          throw new IllegalStateException("the replay rebuilt " + replay.messages() + " of " + total + " messages");
        }
        double replaySeconds = replay.took().toNanos() / 1e9;
        System.out.printf("| %d | %.2f s | %,.0f | %.2f s | %,.0f | %.0f %% | %.2f s | %,.0f | %.0f %% |%n", repeat,
            reads.plainSeconds(), reads.records() / reads.plainSeconds(), reads.reportSeconds(),
            reads.records() / reads.reportSeconds(), 100 * (reads.plainSeconds() / reads.reportSeconds()), replaySeconds,
            total / replaySeconds, 100 * (reads.plainSeconds() / replaySeconds));
      }
      System.out.println();
      System.out.println("(report ÷ read, replay ÷ read: their rates as a share of the plain read's; each timed from its"
          + " first request to the log's end, the servers already up.)");
    } finally {
      if (given.get("dir") == null) {
        BenchSupport.deleteTree(dir);
      }
    }
  }

  record Reads(long records, double plainSeconds, double reportSeconds) {}

  /**
   * Every partition of the event log from offset 0 to its end, read_committed, twice: plainly
   * (nothing decoded: the floor of any reader) and as {@code seqsync analytics} reads it (decoded
   * and counted into a {@link TrafficReport}), which must count every message.
   */
  private static Reads readWholeLog(SeqsyncConfig config, long messages) {
    try (LocalStack stack = LocalStack.start(config)) {
      Topic<String, Event> events = Topics.from(config.kafka()).events();
      Topic<byte[], byte[]> bytes =
          new Topic<>(events.name(), events.partitions(), Serdes.ByteArray(), Serdes.ByteArray(), Map.of());
      long start = System.nanoTime();
      TopicScan.Result plain = TopicScan.read(KafkaConnection.plain(stack.kafkaBootstrapServers()), bytes, Optional.empty(), record -> { });
      double plainSeconds = (System.nanoTime() - start) / 1e9;
      TrafficReport report = new TrafficReport(TrafficReport.Period.DAY, Instant.EPOCH);
      start = System.nanoTime();
      TopicScan.read(KafkaConnection.plain(stack.kafkaBootstrapServers()), events, Optional.empty(), report::add);
      double reportSeconds = (System.nanoTime() - start) / 1e9;
      long counted = report.periods().stream().mapToLong(TrafficReport.PeriodFigures::messages).sum();
      if (counted != messages || report.seqAnomalyCount() != 0) {
        throw new IllegalStateException("the report counted " + counted + " of " + messages + " messages, "
            + report.seqAnomalyCount() + " seq anomalies");
      }
      return new Reads(plain.records(), plainSeconds, reportSeconds);
    }
  }
}
