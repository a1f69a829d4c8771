package io.seqsync.ingress;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.seqsync.config.ConfigLoader;
import io.seqsync.events.Topics;
import io.seqsync.localstack.LocalPostgres;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whatever a client sends, the answer is a JSON error with a fitting 4xx, never a 500; a
 * dependency that is down is a 503. Kafka is deliberately unreachable here.
 */
class ErrorsApiTest {
  private static final String SEND = "/v1/conversations/d:1:2/messages";
  private static final int MAX_CONTENT = 1024;

  @TempDir static Path dir;
  private static LocalPostgres postgres;
  private static CommandPublisher deadKafka;

  private TestApp test;
  private String phone;

  @BeforeAll
  static void start() {
    postgres = LocalPostgres.start(dir, 0);
    deadKafka = new CommandPublisher("127.0.0.1:1", Topics.from(ConfigLoader.of(Map.of()).kafka()).commands());
  }

  @AfterAll
  static void stop() {
    deadKafka.close();
    postgres.close();
  }

  @BeforeEach
  void app() {
    test = new TestApp(postgres, deadKafka, new ReplyWaiter(), Duration.ofSeconds(1), MAX_CONTENT);
    phone = test.token(1, "phone");
    test.rows.conversation("d:1:2", 1, 2).message("d:1:2", 1, 501, 2, "text", "hi")
        .message("d:1:2", 2, 502, 1, "system", "{}").message("d:1:2", 3, 503, 1, "text", "mine");
  }

  @AfterEach
  void close() {
    test.close();
  }

  @Test
  void malformedBodiesAre400() {
    Map<String, String> cases = Map.ofEntries(
        Map.entry("", "invalid_json"),
        Map.entry("{", "invalid_json"),
        Map.entry("not json", "invalid_json"),
        Map.entry("[]", "invalid_json"),
        Map.entry("\"text\"", "invalid_json"),
        Map.entry("null", "invalid_json"),
        Map.entry("{\"clientMsgId\":\"a\",\"type\":\"text\",\"content\":\"x\"} {}", "invalid_json"),
        Map.entry("{\"clientMsgId\":\"a\",\"clientMsgId\":\"b\",\"type\":\"text\",\"content\":\"x\"}", "invalid_json"),
        Map.entry("{\"type\":\"text\",\"content\":\"x\"}", "missing_field"),
        Map.entry("{\"clientMsgId\":null,\"type\":\"text\",\"content\":\"x\"}", "missing_field"),
        Map.entry("{\"clientMsgId\":\"a\",\"type\":\"text\"}", "missing_field"),
        Map.entry("{\"clientMsgId\":5,\"type\":\"text\",\"content\":\"x\"}", "invalid_field"),
        Map.entry("{\"clientMsgId\":\"a\",\"type\":true,\"content\":\"x\"}", "invalid_field"),
        Map.entry("{\"clientMsgId\":\"a\",\"type\":\"text\",\"content\":42}", "invalid_field"),
        Map.entry("{\"clientMsgId\":\"a\",\"type\":\"text\",\"content\":{\"x\":1}}", "invalid_field"),
        Map.entry("{\"clientMsgId\":\"a\",\"type\":\"video\",\"content\":\"x\"}", "invalid_field"),
        Map.entry("{\"clientMsgId\":\"a\",\"type\":\"system\",\"content\":\"x\"}", "invalid_field"),
        Map.entry("{\"clientMsgId\":\"a\",\"type\":\"recall\",\"content\":\"1\"}", "invalid_field"),
        Map.entry("{\"clientMsgId\":\"\",\"type\":\"text\",\"content\":\"x\"}", "invalid_field"),
        Map.entry("{\"clientMsgId\":\"" + "a".repeat(129) + "\",\"type\":\"text\",\"content\":\"x\"}", "invalid_field"),
        Map.entry("{\"clientMsgId\":\"a\\u0000b\",\"type\":\"text\",\"content\":\"x\"}", "invalid_field"));
    cases.forEach((body, code) -> {
      Http.Response response = test.http.post(SEND, phone, body);
      assertThat(response.status()).as(body).isEqualTo(400);
      assertThat(response.errorCode()).as(body).isEqualTo(code);
      assertThat(response.headers().firstValue("Content-Type")).as(body).hasValueSatisfying(
          type -> assertThat(type).startsWith("application/json"));
    });
  }

  @Test
  void tooLargeIs413() {
    String justRight = "{\"clientMsgId\":\"a\",\"type\":\"text\",\"content\":\"" + "é".repeat(MAX_CONTENT / 2 + 1) + "\"}";
    Http.Response content = test.http.post(SEND, phone, justRight);
    assertThat(content.status()).isEqualTo(413);
    assertThat(content.errorCode()).isEqualTo("content_too_large");

    String huge = "{\"clientMsgId\":\"a\",\"type\":\"text\",\"content\":\"" + "x".repeat(2 << 20) + "\"}";
    Http.Response body = test.http.post(SEND, phone, huge);
    assertThat(body.status()).isEqualTo(413);
    assertThat(body.errorCode()).isEqualTo("too_large");
  }

  @Test
  void theCallerIsTheTokenNeverTheBody() {
    // A body naming another sender changes nothing: user 3 is still not a member of d:1:2.
    Http.Response response = test.http.post(SEND, test.token(3, "phone"),
        "{\"clientMsgId\":\"a\",\"type\":\"text\",\"content\":\"x\",\"senderId\":\"1\",\"userId\":1}");
    assertThat(response.status()).isEqualTo(403);
    assertThat(response.errorCode()).isEqualTo("not_a_member");
    assertThat(test.http.post("/v1/conversations/g:none/messages", phone,
        "{\"clientMsgId\":\"a\",\"type\":\"text\",\"content\":\"x\"}").status()).isEqualTo(404);
  }

  @Test
  void aSendWhileKafkaIsDownIs503() {
    Http.Response response = test.http.post(SEND, phone, "{\"clientMsgId\":\"a\",\"type\":\"text\",\"content\":\"x\"}");
    assertThat(response.status()).isEqualTo(503);
    assertThat(response.errorCode()).isEqualTo("kafka_unavailable");
  }

  @Test
  void recallIsCheckedBeforeAnythingIsProduced() {
    String recall = "/v1/conversations/d:1:2/messages/%s/recall";
    Map<String, Integer> cases = Map.of("abc", 400, "0", 400, "-1", 400, "1.0", 400, "99999999999999999999", 400,
        "9", 404, "1", 403, "2", 409);
    cases.forEach((seq, status) -> {
      Http.Response response = test.http.post(recall.formatted(seq), phone, "");
      assertThat(response.status()).as(seq).isEqualTo(status);
      assertThat(response.errorCode()).as(seq).isNotNull();
    });
    assertThat(test.http.post(recall.formatted("3"), test.token(3, "phone"), "").status()).isEqualTo(403);
    assertThat(test.http.post(recall.formatted("3"), null, "").status()).isEqualTo(401);
  }

  @Test
  void unknownRoutesAndMethodsAreJsonErrors() {
    for (HttpRequest request : List.of(
        test.http.builder("/v1/nope", phone).GET().build(),
        test.http.builder("/nope", null).GET().build(),
        test.http.builder("/v1/sync", phone).DELETE().build(),
        test.http.builder("/v1/conversations/d:1:2/messages", phone).PUT(HttpRequest.BodyPublishers.noBody()).build())) {
      Http.Response response = test.http.send(request);
      assertThat(response.status()).as(request.toString()).isBetween(400, 499);
      assertThat(response.errorCode()).as(request.toString()).isNotBlank();
    }
  }

  @Test
  void healthIs503WhileKafkaIsDown() {
    Http.Response response = test.http.get("/health", null);
    assertThat(response.status()).isEqualTo(503);
    JsonNode body = response.json();
    assertThat(body.get("status").asText()).isEqualTo("unavailable");
    assertThat(body.path("checks").path("postgres").asText()).isEqualTo("up");
    assertThat(body.path("checks").path("kafka").asText()).isEqualTo("down");
    assertThat(body.path("error").path("code").asText()).isEqualTo("unavailable");
  }

  @Test
  void metricsTimeEveryRoute() {
    test.http.get("/v1/conversations/d:1:2/messages?after=0", phone);
    test.http.get("/v1/conversations/d:1:2/messages?limit=0", phone);
    test.http.post("/v1/sync", phone, "{}");
    test.http.get("/v1/nope", phone);

    Http.Response metrics = test.http.get("/metrics", null);
    assertThat(metrics.status()).isEqualTo(200);
    assertThat(metrics.headers().firstValue("Content-Type").orElse("")).startsWith("text/plain");
    assertThat(metrics.body())
        .contains("http_server_requests_seconds_count{method=\"GET\",route=\"/v1/conversations/{convId}/messages\",status=\"200\"} 1")
        .contains("http_server_requests_seconds_count{method=\"GET\",route=\"/v1/conversations/{convId}/messages\",status=\"400\"} 1")
        .contains("http_server_requests_seconds_count{method=\"POST\",route=\"/v1/sync\",status=\"200\"} 1")
        .contains("route=\"unmatched\",status=\"404\"");
  }

  @Test
  void noInputGivesA500() {
    List<String> paths = List.of("/v1/conversations/%00/messages", "/v1/conversations/d:1:2/messages?after=%ff",
        "/v1/conversations/" + "g:" + "x".repeat(5000) + "/messages", "/v1/conversations/d:1:2/messages/%20/recall",
        "/v1/conversations/d%3A1%3A2/messages", "/v1/conversations/%2e%2e/messages", "/v1//sync");
    for (String path : paths) {
      for (Http.Response response : List.of(test.http.get(path, phone), test.http.post(path, phone, "{\"clientMsgId\":1}"))) {
        assertThat(response.status()).as(path).isBetween(200, 499);
        if (response.status() >= 400) {
          assertThat(response.errorCode()).as(path).isNotBlank();
        }
      }
    }
  }
}
