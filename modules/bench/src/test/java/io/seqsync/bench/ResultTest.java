package io.seqsync.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** One result format: a run's header, options and rows written as one JSON file, and read back. */
class ResultTest {
  @Test
  void aRunIsOneJsonFileWithItsOptionsAndRows() throws Exception {
    Tally tally = new Tally();
    tally.add(200, 2_000_000);
    tally.add(200, 4_000_000);
    tally.add(503, 1_000_000);
    tally.error("refused");
    Path dir = Files.createTempDirectory("bench-result-");
    Path file = new Result("send", "2026-01-02T03:04:05Z", 1.5, 2, "1.0, 1.0, 1.0", "2.0, 1.0, 1.0",
        Map.of("rates", List.of(100)), List.of(Result.row("rate", 100, "tally", tally.summary(2)))).write(dir);

    assertThat(file.getFileName().toString()).isEqualTo("send-20260102-030405.json");
    JsonNode json = new ObjectMapper().readTree(file.toFile());
    assertThat(json.path("options").path("rates").get(0).asInt()).isEqualTo(100);
    JsonNode row = json.path("rows").get(0).path("tally");
    assertThat(row.path("okPerSecond").asLong()).isEqualTo(1);
    assertThat(row.path("statuses").path("503").asLong()).isEqualTo(1);
    assertThat(row.path("errors").asLong()).isEqualTo(1);
    assertThat(row.path("latency").path("count").asLong()).isEqualTo(2); // only the 200s
    assertThat(row.path("latency").path("maxMs").asDouble()).isCloseTo(4.0, within(0.01));
  }
}
