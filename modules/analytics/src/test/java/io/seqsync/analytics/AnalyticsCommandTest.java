package io.seqsync.analytics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seqsync.config.ConfigLoader;
import io.seqsync.config.KafkaConnection;
import io.seqsync.config.SeqsyncConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The subcommand's arguments and failures; what it reports is in {@code AnalyticsEndToEndTest} (module app). */
class AnalyticsCommandTest {
  private static final Instant NOW = Instant.parse("2026-12-01T15:30:00Z");

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  @Test
  void sinceIsAnInstantADayOrADurationBack() {
    assertThat(AnalyticsCommand.since("2026-11-30T09:00:00Z", NOW)).isEqualTo(Instant.parse("2026-11-30T09:00:00Z"));
    assertThat(AnalyticsCommand.since("2026-11-30", NOW)).isEqualTo(Instant.parse("2026-11-30T00:00:00Z"));
    assertThat(AnalyticsCommand.since("24h", NOW)).isEqualTo(Instant.parse("2026-11-30T15:30:00Z"));
    assertThat(AnalyticsCommand.since("7d", NOW)).isEqualTo(Instant.parse("2026-11-24T15:30:00Z"));
  }

  @Test
  void badArgumentsPrintUsageAndExit2() {
    String[][] bad = {{"--since", "yesterday"}, {"--period", "week"}, {"--colour", "red"}, {"--since"},
        {"--period", "day", "--period", "hour"}};
    for (String[] args : bad) {
      out.reset();
      err.reset();
      assertThat(run(ConfigLoader.of(Map.of()), args)).as(String.join(" ", args)).isEqualTo(2);
      assertThat(out.size()).isZero();
      assertThat(err.toString(StandardCharsets.UTF_8)).contains(AnalyticsCommand.USAGE);
    }
  }

  @Test
  void readsTheConfiguredBrokersElseTheRunningBackendsEmbeddedOne() {
    assertThat(AnalyticsCommand.kafka(ConfigLoader.of(Map.of("kafka.bootstrap-servers", "kafka-1:9092"))))
        .isEqualTo(KafkaConnection.plain("kafka-1:9092"));
    assertThat(AnalyticsCommand.kafka(ConfigLoader.of(Map.of()))).isEqualTo(KafkaConnection.plain("127.0.0.1:9092"));
    assertThat(AnalyticsCommand.kafka(ConfigLoader.of(Map.of("kafka.embedded-port", "9192"))))
        .isEqualTo(KafkaConnection.plain("127.0.0.1:9192"));
    // The configured brokers' TLS and login apply to the report's consumer too.
    assertThat(AnalyticsCommand.kafka(ConfigLoader.of(Map.of("kafka.bootstrap-servers", "kafka-1:9093",
        "kafka.security-protocol", "SSL"))).clientSettings()).containsEntry("security.protocol", "SSL");
    assertThatThrownBy(() -> AnalyticsCommand.kafka(ConfigLoader.of(Map.of("kafka.embedded-port", "0"))))
        .hasMessageContaining("SEQSYNC_KAFKA_BOOTSTRAP_SERVERS");
  }

  @Test
  void noBrokerIsAFailureThatSaysSo() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    SeqsyncConfig config = ConfigLoader.of(Map.of("kafka.bootstrap-servers", "127.0.0.1:" + closedPort));
    assertThat(run(config)).isEqualTo(1);
    assertThat(out.size()).isZero();
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("analytics failed: no Kafka broker answers at 127.0.0.1:"
        + closedPort);
  }

  private int run(SeqsyncConfig config, String... args) {
    return AnalyticsCommand.run(args, config, NOW, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }
}
