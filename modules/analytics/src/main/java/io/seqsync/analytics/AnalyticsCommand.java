package io.seqsync.analytics;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.seqsync.config.CommandLineOptions;
import io.seqsync.config.Durations;
import io.seqsync.config.KafkaConnection;
import io.seqsync.config.SeqsyncConfig;
import io.seqsync.events.Topics;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code analytics} subcommand: reads the event log as an analytics consumer would, next to the
 * running backend ({@link TopicScan}), and prints a {@link TrafficReport} as JSON.
 * {@code --since} is an instant ({@code 2026-12-01T09:00:00Z}), a UTC day ({@code 2026-12-01}) or a
 * duration back from now ({@code 24h}, {@code 7d}); {@code --period} is {@code day} (the default) or {@code hour}.
 */
public final class AnalyticsCommand {
  public static final String USAGE = "usage: analytics [--since 2026-12-01T09:00:00Z | 2026-12-01 | 24h] [--period day|hour]";
  private static final Set<String> OPTIONS = Set.of("--since", "--period");
  /**
   * How far before {@code --since} the scan starts. Partitions are searched by record timestamp,
   * which is when the ingress produced the command, not when the sequencer appended its event: a
   * command that waited for the sequencer up to this long is still counted in its period.
   */
  static final Duration SINCE_MARGIN = Duration.ofHours(1);

  private AnalyticsCommand() {}

  /**
   * Prints the report for {@code args} on {@code out} and returns 0; or prints what is wrong on
   * {@code err} and returns 2 for bad arguments, 1 when the log cannot be read.
   */
  public static int run(String[] args, SeqsyncConfig config, Instant now, PrintStream out, PrintStream err) {
    Map<String, String> options;
    Optional<Instant> since;
    TrafficReport.Period period;
    try {
      options = CommandLineOptions.parse(args, OPTIONS);
      since = Optional.ofNullable(options.get("--since")).map(text -> since(text, now));
      period = TrafficReport.Period.parse(options.getOrDefault("--period", "day"));
    } catch (IllegalArgumentException e) {
      err.println(e.getMessage());
      err.println(USAGE);
      return 2;
    }
    try {
      out.println(report(kafka(config), Topics.from(config.kafka()), since, period));
      return 0;
    } catch (IllegalStateException e) {
      err.println("analytics failed: " + e.getMessage());
      return 1;
    }
  }

  /** The report of the event log at {@code kafka}, as pretty-printed JSON. */
  static String report(KafkaConnection kafka, Topics topics, Optional<Instant> since, TrafficReport.Period period) {
    TrafficReport report = new TrafficReport(period, since.orElse(Instant.EPOCH));
    TopicScan.Result scan = TopicScan.read(kafka, topics.events(), since.map(start -> start.minus(SINCE_MARGIN)),
        report::add);
    Map<String, Object> document = new LinkedHashMap<>();
    document.put("bootstrapServers", kafka.bootstrapServers());
    document.put("topic", topics.events().name());
    document.put("since", since.map(Instant::toString).orElse(null));
    document.put("period", period.name().toLowerCase(Locale.ROOT));
    document.put("eventsRead", scan.records());
    document.put("undecodable", scan.undecodable());
    document.put("periods", report.periods());
    document.put("seqAnomalies", report.seqAnomalyCount());
    document.put("firstSeqAnomalies", report.seqAnomalies());
    try {
      return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(document);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write the report", e);
    }
  }

  /**
   * The configured brokers, or the embedded broker of a backend running with this configuration:
   * a second process may not start its own on the same data directory.
   */
  static KafkaConnection kafka(SeqsyncConfig config) {
    return config.kafka().bootstrapServers().map(servers -> KafkaConnection.configured(config.kafka(), servers))
        .orElseGet(() -> {
      if (config.kafka().embeddedPort() == 0) {
        throw new IllegalStateException("kafka.embedded-port is 0 (any free port): set SEQSYNC_KAFKA_BOOTSTRAP_SERVERS"
            + " to the address the running seqsync logged at start");
      }
      return KafkaConnection.plain("127.0.0.1:" + config.kafka().embeddedPort());
    });
  }

  static Instant since(String text, Instant now) {
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException notAnInstant) {
      try {
        return LocalDate.parse(text).atStartOfDay(ZoneOffset.UTC).toInstant();
      } catch (DateTimeParseException notADay) {
        try {
          return now.minus(Durations.parse(text));
        } catch (IllegalArgumentException notADuration) {
          throw new IllegalArgumentException("--since must be an instant (2026-12-01T09:00:00Z), a day (2026-12-01)"
              + " or a duration back from now (24h, 7d): " + text);
        }
      }
    }
  }
}
