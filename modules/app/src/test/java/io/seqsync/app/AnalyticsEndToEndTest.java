package io.seqsync.app;

import static io.seqsync.app.EndToEnd.accepted;
import static io.seqsync.app.EndToEnd.awaitActivation;
import static io.seqsync.app.EndToEnd.ok;
import static io.seqsync.app.EndToEnd.send;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.seqsync.analytics.AnalyticsCommand;
import io.seqsync.config.ConfigLoader;
import io.seqsync.testkit.ApiClient;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An analytics consumer (D5) next to the running backend: {@code seqsync analytics} reads the event
 * log the sequencer wrote for a history of sends, a recall, an ack, a read report, a draft and a
 * group, and counts each of them once; a recall the ingress refused never reached the log.
 */
class AnalyticsEndToEndTest {
  private static final String DIRECT = "d:921:922";

  @TempDir Path dir;

  @Test
  void theReportCountsWhatHappenedFromTheEventLog() throws IOException {
    try (SeqsyncApp app = EndToEnd.start(dir)) {
      ApiClient alice = EndToEnd.client(app, 921, "phone");
      ApiClient bob = EndToEnd.client(app, 922, "laptop");
      send(alice, DIRECT, 5);
      send(bob, DIRECT, 2);
      ok(alice.post("/v1/conversations/" + DIRECT + "/messages/3/recall", ""));
      assertThat(alice.post("/v1/conversations/" + DIRECT + "/messages/99/recall", "").status()).isEqualTo(404);
      accepted(bob.put("/v1/conversations/" + DIRECT + "/draft", "{\"text\":\"half a thought\"}"));
      accepted(bob.post("/v1/acks", "{\"acks\":[{\"convId\":\"" + DIRECT + "\",\"seq\":8}]}"));
      accepted(alice.post("/v1/reads", "{\"convId\":\"" + DIRECT + "\",\"seq\":8}"));
      ApiClient.Response created = alice.post("/v1/groups", "{\"name\":\"trio\",\"members\":[\"922\",\"923\"]}");
      assertThat(created.status()).as("%s", created.body()).isEqualTo(201);
      send(alice, created.body().get("convId").asText(), 1);
      awaitActivation(bob, DIRECT, activation -> activation.get("deviceCursor").asLong() == 8);
      awaitActivation(alice, DIRECT, activation -> activation.get("readSeq").asLong() == 8);

      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      int exit = AnalyticsCommand.run(new String[] {"--since", "1h", "--period", "hour"},
          ConfigLoader.of(Map.of("kafka.bootstrap-servers", app.stack().kafkaBootstrapServers(), "kafka.partitions", "3")),
          Instant.now(), new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));

      assertThat(exit).as(err.toString(StandardCharsets.UTF_8)).isZero();
      JsonNode report = new ObjectMapper().readTree(out.toByteArray());
      assertThat(report.get("eventsRead").asLong()).as("%s", report).isEqualTo(13);
      assertThat(report.get("undecodable").asLong()).isZero();
      assertThat(report.get("seqAnomalies").asLong()).isZero();
      JsonNode periods = report.get("periods");
      assertThat(periods.size()).as("one hour, or two when it turned").isBetween(1, 2);
      assertThat(sum(periods, "messages")).isEqualTo(10);
      assertThat(sum(periods, "messagesByType", "TEXT")).isEqualTo(8);
      assertThat(sum(periods, "messagesByType", "RECALL")).isEqualTo(1);
      assertThat(sum(periods, "messagesByType", "SYSTEM")).isEqualTo(1);
      assertThat(sum(periods, "deliveryCursorMoves")).isEqualTo(1);
      assertThat(sum(periods, "readMoves")).isEqualTo(1);
      assertThat(sum(periods, "draftUpdates")).isEqualTo(1);
      assertThat(sum(periods, "membershipChanges")).isEqualTo(1);
      assertThat(periods.findValues("rejectedByReason")).allMatch(JsonNode::isEmpty);
      if (periods.size() == 1) {
        assertThat(periods.get(0).get("senders").asInt()).isEqualTo(2);
        assertThat(periods.get(0).get("conversations").asInt()).isEqualTo(2);
      }
    }
  }

  private static long sum(JsonNode periods, String... path) {
    long sum = 0;
    for (JsonNode period : periods) {
      JsonNode value = period;
      for (String name : path) {
        value = value.path(name);
      }
      sum += value.asLong();
    }
    return sum;
  }
}
