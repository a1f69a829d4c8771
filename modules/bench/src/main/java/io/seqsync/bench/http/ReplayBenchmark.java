package io.seqsync.bench.http;

import io.seqsync.app.ProjectionReplay;
import io.seqsync.app.SeqsyncApp;
import io.seqsync.bench.BenchSupport;
import io.seqsync.bench.CliOptions;
import io.seqsync.config.ConfigLoader;
import io.seqsync.config.SeqsyncConfig;
import io.seqsync.events.Topics;
import io.seqsync.localstack.LocalStack;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * How long {@code seqsync replay} takes to rebuild the projection of an event log, next to the
 * floor of any replay measured in the same run: one plain {@code read_committed} consumer reading
 * the same log from offset 0 to its end, decoding nothing, writing nothing. The log is made as the
 * fetch benchmark makes its data (direct conversations, every message a send command through the
 * sequencer and the live projector, whose time is reported too). Markdown on stdout.
 */
public final class ReplayBenchmark {
  static final String USAGE = """
      usage: ReplayBenchmark [--conversations=200] [--messages=1000] [--repeats=3] [--dir=PATH]
        --conversations x --messages: the history, sent through the commands topic.
        --repeats: replays (each empties the projection and rebuilds it), each after a read of the log.
        --dir: keep the data there (default: a temporary directory, deleted at the end).""";
  private static final Set<String> NAMES = Set.of("conversations", "messages", "repeats", "dir");

  private ReplayBenchmark() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> given = CliOptions.parseOrExit(args, arguments -> CliOptions.parse(arguments, NAMES), USAGE);
    int conversations = HttpBenchOptions.positive(given, "conversations", 200);
    int messages = HttpBenchOptions.positive(given, "messages", 1_000);
    int repeats = HttpBenchOptions.positive(given, "repeats", 3);
    BenchSupport.quietLogs();
    Path dir = HttpBenchOptions.value(given, "dir").map(Path::of).orElse(Files.createTempDirectory("seqsync-bench-replay-"));
    SeqsyncConfig config = ConfigLoader.of(Map.of("data-dir", dir.toString(), "kafka.embedded-port", "0",
        "postgres.embedded-port", "0", "redis.embedded-port", "0", "http.port", "0", "archive.interval", "0s"));
    try {
      double live;
      try (SeqsyncApp app = SeqsyncApp.start(config)) {
        System.err.printf("   sending %,d conversations x %,d messages through the commands topic%n", conversations, messages);
        live = new FetchBenchmark(conversations, messages, 1).preload(app.stack().kafkaBootstrapServers(),
            Topics.from(config.kafka()).commands(), app.stack().postgresJdbcUrl(), app.stack().postgresUser(),
            app.stack().postgresPassword());
      }
      long total = (long) conversations * messages;
      System.out.printf("Replay of %,d messages (%,d conversations x %,d), load average %s; sent, sequenced and projected live in %.1f s"
          + " (%,.0f messages/s).%n%n", total, conversations, messages, BenchSupport.loadAverage(), live, total / live);
      System.out.println("| repeat | read_committed read of the log | records/s | replay (empty, project, delivery) | messages/s | replay ÷ read |");
      System.out.println("|---:|---:|---:|---:|---:|---:|");
      for (int repeat = 1; repeat <= repeats; repeat++) {
        Read read = readWholeLog(config);
        ProjectionReplay.Summary replay = ProjectionReplay.run(config);
        if (replay.messages() != total) {
          throw new IllegalStateException("the replay rebuilt " + replay.messages() + " of " + total + " messages");
        }
        double replaySeconds = replay.took().toNanos() / 1e9;
        System.out.printf("| %d | %.2f s | %,.0f | %.2f s | %,.0f | %.0f %% |%n", repeat, read.seconds(),
            read.records() / read.seconds(), replaySeconds, total / replaySeconds, 100 * (read.seconds() / replaySeconds));
      }
      System.out.println();
      System.out.println("(replay ÷ read: replay's rate as a share of the plain read's; both timed from their first"
          + " request to the log's end, the servers already up.)");
    } finally {
      if (given.get("dir") == null) {
        BenchSupport.deleteTree(dir);
      }
    }
  }

  record Read(long records, double seconds) {}

  // Every partition of the event log from offset 0 to its end as it is now, read_committed.
  private static Read readWholeLog(SeqsyncConfig config) {
    try (LocalStack stack = LocalStack.start(config)) {
      Map<String, Object> props = new HashMap<>();
      props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrapServers());
      props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
      props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 2_000);
      try (KafkaConsumer<byte[], byte[]> consumer =
          new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
        String topic = Topics.from(config.kafka()).events().name();
        List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
            .map(info -> new TopicPartition(topic, info.partition())).toList();
        long start = System.nanoTime();
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
        long records = 0;
        while (partitions.stream().anyMatch(partition -> consumer.position(partition) < ends.get(partition))) {
          ConsumerRecords<byte[], byte[]> batch = consumer.poll(Duration.ofMillis(200));
          records += batch.count();
        }
        return new Read(records, (System.nanoTime() - start) / 1e9);
      }
    }
  }
}
