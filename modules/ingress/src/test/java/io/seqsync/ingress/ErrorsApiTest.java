package io.seqsync.ingress;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.seqsync.ingress.api.PositionRequests;
import io.seqsync.ingress.api.SyncService;
import io.seqsync.ingress.commands.CommandSealing;
import io.seqsync.store.Database;
import io.seqsync.store.keys.ContentKeys;
import io.seqsync.store.keys.ContentSealer;
import io.seqsync.store.keys.MasterKey;
import io.seqsync.store.keys.MasterKeys;
import io.seqsync.testkit.StreamClient;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Whatever a client sends, the answer is a JSON error with a fitting 4xx, never a 500; a
 * dependency that is down is a 503. Kafka is deliberately unreachable here.
 */
class ErrorsApiTest {
  private static final Duration STREAM_WAIT = Duration.ofSeconds(20);
  private static final String SEND = "/v1/conversations/d:1:2/messages";
  private static final int MAX_CONTENT = FetchStack.MAX_CONTENT_BYTES;

  @RegisterExtension
  static final FetchStackExtension stack = FetchStackExtension.appPerTest(Map.of());

  private TestApp test;
  private String phone;

  @BeforeEach
  void rows() {
    test = stack.app();
    phone = test.token(1, "phone");
    test.rows.conversation("d:1:2", 1, 2).message("d:1:2", 1, 501, 2, "text", "hi")
        .message("d:1:2", 2, 502, 1, "system", "{}").message("d:1:2", 3, 503, 1, "text", "mine");
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
  void textsNoStoreCouldKeepAre400() {
    for (String content : List.of("a\\u0000b", "\\ud800", "x\\udc00y")) {
      Http.Response response = test.http.post(SEND, phone, "{\"clientMsgId\":\"a\",\"type\":\"text\",\"content\":\"" + content + "\"}");
      assertThat(response.status()).as(content).isEqualTo(400);
      assertThat(response.errorCode()).as(content).isEqualTo("invalid_field");
    }
    Http.Response draft = test.http.send(test.http.builder("/v1/conversations/d:1:2/draft", phone)
        .PUT(HttpRequest.BodyPublishers.ofString("{\"text\":\"\\u0000\"}")).build());
    assertThat(draft.status()).isEqualTo(400);
    assertThat(draft.errorCode()).isEqualTo("invalid_field");
  }

  @Test
  void oversizedBatchesAre413() {
    StringBuilder cursors = new StringBuilder("{\"cursors\":{");
    for (int i = 0; i <= SyncService.MAX_CURSORS; i++) {
      cursors.append(i == 0 ? "" : ",").append("\"d:1:").append(i + 2).append("\":1");
    }
    Http.Response sync = test.http.post("/v1/sync", phone, cursors.append("}}").toString());
    assertThat(sync.status()).isEqualTo(413);
    assertThat(sync.errorCode()).isEqualTo("too_many_cursors");

    String ack = "{\"convId\":\"d:1:2\",\"seq\":1}";
    Http.Response acks = test.http.post("/v1/acks", phone,
        "{\"acks\":[" + String.join(",", java.util.Collections.nCopies(PositionRequests.MAX_ACKS + 1, ack)) + "]}");
    assertThat(acks.status()).isEqualTo(413);
    assertThat(acks.errorCode()).isEqualTo("too_many_acks");
  }

  @Test
  void numbersOutOfRangeOrNotIntegralAre400() {
    for (String seq : List.of("-1", "1.5", "1.0", "1e3", "9223372036854775808", "18446744073709551616", "\"1\"", "null")) {
      Http.Response response = test.http.post("/v1/reads", phone, "{\"convId\":\"d:1:2\",\"seq\":" + seq + "}");
      assertThat(response.status()).as(seq).isEqualTo(400);
      assertThat(response.errorCode()).as(seq).isEqualTo("invalid_field");
    }
    for (String limit : List.of("0", "1000000000", "+5", "-1", "5.0", "")) {
      assertThat(test.http.get("/v1/conversations?limit=" + limit, phone).errorCode()).as(limit).isEqualTo("invalid_parameter");
      assertThat(test.http.get("/v1/conversations/d:1:2/messages?limit=" + limit, phone).errorCode()).as(limit)
          .isEqualTo("invalid_parameter");
    }
  }

  @Test
  void aPathThatIsNotUtf8IsAJsonErrorForEveryMethod() {
    RawHttp raw = new RawHttp(test.app.port());
    for (String path : List.of("/v1/conversations/%ff%fe/draft", "/v1/conversations/%ff%fe/messages")) {
      for (String method : List.of("GET", "POST", "PUT", "DELETE")) {
        Http.Response response = raw.send(method, path, phone, "{\"text\":\"x\"}");
        assertThat(response.status()).as(method + " " + path).isEqualTo(400);
        assertThat(response.errorCode()).as(method + " " + path).isEqualTo("bad_request");
      }
    }
  }

  @Test
  void aQueryThatIsNotUrlEncodingIsA400() {
    RawHttp raw = new RawHttp(test.app.port());
    for (String query : List.of("after=%zz", "after=%", "%ff%fe=1", "after=%ff")) {
      Http.Response response = raw.send("GET", "/v1/conversations/d:1:2/messages?" + query, phone, "");
      assertThat(response.status()).as(query).isEqualTo(400);
      assertThat(response.errorCode()).as(query).isNotBlank();
    }
  }

  @Test
  void aRequestRefusedBeforeItsBodyIsReadStillGetsItsAnswer() {
    String big = "{\"text\":\"" + "x".repeat(400_000) + "\"}";
    for (int i = 0; i < 5; i++) {
      Http.Response response = test.http.send(test.http.builder("/v1/conversations/not-a-conv/draft", phone)
          .PUT(HttpRequest.BodyPublishers.ofString(big)).build());
      assertThat(response.status()).isEqualTo(400);
      assertThat(response.errorCode()).isEqualTo("invalid_conv_id");
    }
  }

  @Test
  void garbageOnThePushStreamGetsErrorFramesOrA1009Close() {
    try (StreamClient probe = StreamClient.withHeader(test.app.port(), phone)) {
      assertThat(probe.nextOrClose(STREAM_WAIT).path("type").asText()).isEqualTo("sync");
      probe.trySendBinary(new byte[] {1, 2, 3});
      assertThat(probe.nextOrClose(STREAM_WAIT).path("error").path("code").asText()).isEqualTo("invalid_frame");
      probe.trySend("not json");
      assertThat(probe.nextOrClose(STREAM_WAIT).path("error").path("code").asText()).isEqualTo("invalid_json");
      probe.trySend("{\"type\":\"subscribe\"}");
      assertThat(probe.nextOrClose(STREAM_WAIT).path("error").path("code").asText()).isEqualTo("unknown_frame");
      probe.trySend("{\"type\":\"ack\",\"convId\":\"d:1:2\",\"seq\":-1}");
      assertThat(probe.nextOrClose(STREAM_WAIT).path("error").path("code").asText()).isEqualTo("invalid_field");
      probe.trySend("{\"type\":\"ping\",\"pad\":\"" + "x".repeat(70_000) + "\"}");
      assertThat(probe.nextOrClose(STREAM_WAIT)).isNull();
      assertThat(probe.closeCode(STREAM_WAIT)).isEqualTo(1009);
    }
  }

  @Test
  void tooLargeIs413() {
    String justRight = "{\"clientMsgId\":\"a\",\"type\":\"text\",\"content\":\"" + "é".repeat(MAX_CONTENT / 2 + 1) + "\"}";
    Http.Response content = test.http.post(SEND, phone, justRight);
    assertThat(content.status()).isEqualTo(413);
    assertThat(content.errorCode()).isEqualTo("content_too_large");

    // Refused before the body is read; read and dropped all the same, so the answer is never lost to a reset.
    String huge = "{\"clientMsgId\":\"a\",\"type\":\"text\",\"content\":\"" + "x".repeat(2 << 20) + "\"}";
    for (int i = 0; i < 5; i++) {
      Http.Response body = test.http.post(SEND, phone, huge);
      assertThat(body.status()).isEqualTo(413);
      assertThat(body.errorCode()).isEqualTo("too_large");
    }
  }

  @Test
  void aChunkedSendIsReadWholeAndHeldToTheSameLimit() {
    RawHttp raw = new RawHttp(test.app.port());
    Http.Response small = raw.sendChunked("POST", SEND, phone, "{\"clientMsgId\":\"a\",\"type\":\"text\",");
    assertThat(small.status()).isEqualTo(400);
    assertThat(small.errorCode()).isEqualTo("invalid_json");

    String huge = "{\"clientMsgId\":\"a\",\"type\":\"text\",\"content\":\"" + "x".repeat(2 << 20) + "\"}";
    Http.Response large = raw.sendChunked("POST", SEND, phone, huge);
    assertThat(large.status()).isEqualTo(413);
    assertThat(large.errorCode()).isEqualTo("too_large");
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
  void aSendOrADraftWhileTheKeyStoreIsDownIs503NamingIt() {
    // The key store on a real PostgreSQL through a closed pool: every key insert fails, as with PostgreSQL down.
    Database keyStore = test.openPool();
    keyStore.close();
    ContentKeys keys = new ContentKeys(keyStore.jdbi(), MasterKeys.of(MasterKey.parse(MasterKey.generate()), List.of()));
    try (ContentSealer sealer = new ContentSealer(keys)) {
      stack.publisher().sealingWith(new CommandSealing(sealer));
      Http.Response send = test.http.post(SEND, phone, "{\"clientMsgId\":\"k\",\"type\":\"text\",\"content\":\"x\"}");
      assertThat(send.status()).isEqualTo(503);
      assertThat(send.errorCode()).as("%s", send.body()).isEqualTo("key_store_unavailable");
      Http.Response draft = test.http.put("/v1/conversations/d:1:2/draft", phone, "{\"text\":\"x\"}");
      assertThat(draft.status()).isEqualTo(503);
      assertThat(draft.errorCode()).as("%s", draft.body()).isEqualTo("key_store_unavailable");
    } finally {
      stack.publisher().sealingWith(CommandSealing.NONE);
    }
  }

  @Test
  void sendsWaitingForKafkaHoldUpNoOtherRequest() throws Exception {
    // Were these sends made on Jetty's selector threads, each would hold its thread for max.block.ms
    // (2 s) and every connection of that selector with it.
    assertThat(stack.publisher().publishesWithoutBlocking()).isFalse();
    List<CompletableFuture<Http.Response>> sends = IntStream.range(0, 8)
        .mapToObj(i -> test.http.postAsync(SEND, phone, "{\"clientMsgId\":\"w" + i + "\",\"type\":\"text\",\"content\":\"x\"}"))
        .toList();
    Thread.sleep(300);
    long began = System.nanoTime();
    assertThat(test.http.get("/metrics", null).status()).isEqualTo(200);
    assertThat(Duration.ofNanos(System.nanoTime() - began)).isLessThan(Duration.ofSeconds(1));
    for (CompletableFuture<Http.Response> send : sends) {
      assertThat(send.get(30, TimeUnit.SECONDS).status()).isEqualTo(503);
    }
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
  void readinessIs503NamingKafkaWhileLivenessStays200() {
    Http.Response ready = test.http.get("/health/ready", null);
    assertThat(ready.status()).as(ready.body()).isEqualTo(503);
    JsonNode body = ready.json();
    assertThat(body.get("status").asText()).isEqualTo("unavailable");
    assertThat(body.path("dependencies").path("kafka").path("state").asText()).isEqualTo("down");
    assertThat(body.path("dependencies").path("postgres").path("state").asText()).isEqualTo("up");
    assertThat(body.path("error").path("message").asText()).isEqualTo("not ready: kafka down");

    Http.Response live = test.http.get("/health/live", null);
    assertThat(live.status()).as("Kafka down is no reason to restart the process: %s", live.body()).isEqualTo(200);
    assertThat(live.json().get("status").asText()).isEqualTo("degraded");
    assertThat(live.json().path("dependencies").path("kafka").path("state").asText()).isEqualTo("down");
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
        "/v1/conversations/d%3A1%3A2/messages", "/v1/conversations/%2e%2e/messages", "/v1//sync",
        "/v1/conversations/d:1:2/messages/?after=0");
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
