package io.seqsync.bench.replay;

import io.seqsync.analytics.TopicScan;
import io.seqsync.analytics.TrafficReport;
import io.seqsync.app.SeqsyncApp;
import io.seqsync.bench.BenchSupport;
import io.seqsync.bench.Bench;
import io.seqsync.bench.History;
import io.seqsync.bench.InJvmApp;
import io.seqsync.bench.Result;
import io.seqsync.config.KafkaConnection;
import io.seqsync.config.SeqsyncConfig;
import io.seqsync.events.Topic;
import io.seqsync.events.Topics;
import io.seqsync.events.model.Event;
import io.seqsync.localstack.LocalStack;
import io.seqsync.projector.replay.ProjectionReplay;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import org.apache.kafka.common.serialization.Serdes;

/**
 * How long {@code seqsync replay} takes to rebuild the projection of an event log, and {@code
 * seqsync analytics} to report on it, next to the floor of both measured in the same run: a plain
 * {@code read_committed} read of the same log from offset 0 to its end, decoding nothing, writing
 * nothing. The log is made as the fetch benchmark makes its data (direct conversations, every message
 * a send command through the sequencer and the live projector, whose time is reported too).
 */
@Command(name = "bench-replay", mixinStandardHelpOptions = true)
public final class ReplayBenchmark extends Bench {
  @Option(names = "--conversations", description = "default: ${DEFAULT-VALUE}") int conversations = 200;
  @Option(names = "--messages", description = "per conversation (default: ${DEFAULT-VALUE})") int messages = 1_000;
  @Option(names = "--repeats", description = "replays, each after a read of the log (default: ${DEFAULT-VALUE})")
  int repeats = 3;
  @Option(names = "--fsync", description = "on: the embedded PostgreSQL flushes its WAL to disk, as a production"
      + " server does (default: ${DEFAULT-VALUE})")
  String fsync = "off";
  @Option(names = "--encryption", description = "on: every content sealed as the ingress seals it, the replay"
      + " opening each; off: plain (default: ${DEFAULT-VALUE})")
  String encryption = "on";

  public static void main(String[] args) {
    Bench.main(new ReplayBenchmark(), args);
  }

  @Override
  protected boolean measure() throws Exception {
    Path dir = Files.createTempDirectory("seqsync-bench-replay-");
    boolean sealed = !"off".equals(encryption);
    SeqsyncConfig config = InJvmApp.config(dir, Map.of("archive.interval", "0s",
        "postgres.embedded-fsync", Boolean.toString("on".equals(fsync)), "crypto.encrypt-content", Boolean.toString(sealed)));
    try {
      try (SeqsyncApp app = InJvmApp.start(config)) {
        System.err.printf("   sending %,d x %,d messages, content %s%n", conversations, messages, sealed ? "sealed" : "plain");
        double live = new History(conversations, messages).write(app, config, app.sealing()::seal);
        rows.add(Result.row("phase", "sent, sequenced and projected live", "seconds", live));
      }
      long total = (long) conversations * messages;
      for (int repeat = 1; repeat <= repeats; repeat++) {
        Reads reads = readWholeLog(config, total);
        ProjectionReplay.Summary replay = ProjectionReplay.run(config);
        if (replay.messages() != total) {
          throw new IllegalStateException("the replay rebuilt " + replay.messages() + " of " + total + " messages");
        }
        double replaySeconds = replay.took().toNanos() / 1e9;
        rows.add(Result.row("repeat", repeat, "messages", total, "plainReadS", reads.plainSeconds(),
            "analyticsReportS", reads.reportSeconds(), "replayS", replaySeconds,
            "reportPercentOfRead", Math.round(100 * reads.plainSeconds() / reads.reportSeconds()),
            "replayPercentOfRead", Math.round(100 * reads.plainSeconds() / replaySeconds)));
        System.err.println("   " + rows.get(rows.size() - 1));
      }
    } finally {
      BenchSupport.deleteTree(dir);
    }
    return true;
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
