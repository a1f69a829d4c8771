package io.seqsync.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.seqsync.testkit.ApiClient;
import io.seqsync.testkit.StreamClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocketHandshakeException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The abuse limits (docs/api.md, "Limits") on the whole app, kept in its Redis: floods get 429
 * with Retry-After and the JSON error, never a 5xx; a refused request changes nothing; a device's,
 * a user's and a socket's budgets are their own; drafts coalesce; sockets past the user's cap are
 * refused before their upgrade (on the instance that holds them) or handshake (across instances)
 * and a device's new socket replaces its old one; and a second instance shares the budgets. Each test has users of its own: one app for all, with small limits.
 */
class LimitsEndToEndTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final String SECRET = "limits-test-secret-0123456789-0123456789";
  // Refills of one token in 100 s: a test's floods find their buckets as the bursts left them.
  private static final String SLOW = "0.01";
  private static final Map<String, String> LIMITS = Map.ofEntries(
      Map.entry("limits.send-device.rate", SLOW), Map.entry("limits.send-device.burst", "5"),
      Map.entry("limits.send-user.rate", SLOW), Map.entry("limits.send-user.burst", "8"),
      Map.entry("limits.position-device.rate", SLOW), Map.entry("limits.position-device.burst", "5"),
      Map.entry("limits.draft.window", "1s"),
      Map.entry("limits.group-user.rate", SLOW), Map.entry("limits.group-user.burst", "3"),
      Map.entry("limits.telemetry-device.rate", SLOW), Map.entry("limits.telemetry-device.burst", "3"),
      Map.entry("limits.frame-socket.rate", SLOW), Map.entry("limits.frame-socket.burst", "5"),
      Map.entry("limits.socket-user.rate", SLOW), Map.entry("limits.socket-user.burst", "6"),
      Map.entry("limits.sockets-per-user", "3"), Map.entry("auth.secret", SECRET));

  @TempDir static Path dir;
  private static SeqsyncApp app;

  @BeforeAll
  static void start() {
    app = SeqsyncApp.start(EndToEnd.config(dir.resolve("app"), LIMITS));
  }

  @AfterAll
  static void stop() {
    if (app != null) {
      app.close();
    }
  }

  @Test
  void aSendFloodIsRefusedPerDeviceThenPerUserAndTheRefusedSendsAreNowhere() {
    String conv = "d:101:102";
    ApiClient phone = EndToEnd.client(app, 101, "phone");
    List<ApiClient.Response> fromPhone = flood(i -> phone.post(messages(conv), send("phone-" + i)), 12);
    assertOkThenRefused(fromPhone, 200, 5);

    // The user's other device has a bucket of its own, but shares the user's 8.
    ApiClient laptop = phone.as(EndToEnd.token(app, 101, "laptop"));
    List<ApiClient.Response> fromLaptop = flood(i -> laptop.post(messages(conv), send("laptop-" + i)), 12);
    assertOkThenRefused(fromLaptop, 200, 3);
    // A recall is a send too.
    assertRefused(phone.post(messages(conv) + "/1/recall", "{}"));

    // Another user is untouched.
    ApiClient other = phone.as(EndToEnd.token(app, 102, "phone"));
    assertThat(other.post(messages(conv), send("other")).status()).isEqualTo(200);

    // Only the admitted sends were written: the refused ones' clientMsgIds are nowhere.
    JsonNode page = other.get(messages(conv) + "?last=50").body();
    List<String> written = new ArrayList<>();
    page.path("messages").forEach(message -> written.add(message.path("clientMsgId").asText()));
    assertThat(written).containsExactly("phone-0", "phone-1", "phone-2", "phone-3", "phone-4",
        "laptop-0", "laptop-1", "laptop-2", "other");
    assertThat(metrics()).contains("seqsync_rate_limited_total{limit=\"send_device\"}")
        .contains("seqsync_rate_limited_total{limit=\"send_user\"}");
  }

  @Test
  void acksReadsGroupsAndTelemetryHaveTheirOwnBuckets() {
    String conv = "d:111:112";
    ApiClient phone = EndToEnd.client(app, 111, "phone");
    assertThat(phone.post(messages(conv), send("hello")).status()).isEqualTo(200);
    // Acks and reads share the device's positions.
    List<ApiClient.Response> positions = flood(i -> i % 2 == 0
        ? phone.post("/v1/acks", "{\"acks\":[{\"convId\":\"" + conv + "\",\"seq\":1}]}")
        : phone.post("/v1/reads", "{\"convId\":\"" + conv + "\",\"seq\":1}"), 10);
    assertOkThenRefused(positions, 202, 5);
    // Refused groups are not created.
    List<ApiClient.Response> groups =
        flood(i -> phone.post("/v1/groups", "{\"name\":\"g" + i + "\",\"members\":[\"112\"]}"), 6);
    assertOkThenRefused(groups, 201, 3);
    List<String> created = groups.subList(0, 3).stream().map(answer -> answer.body().path("convId").asText()).toList();
    assertThat(listedGroups(phone, created.size())).containsExactlyInAnyOrderElementsOf(created);
    // Telemetry, even when invalid, takes its tokens (a flood of bad reports is a flood).
    List<ApiClient.Response> telemetry = flood(i -> phone.post("/v1/telemetry/rendered", "{\"items\":[]}"), 6);
    assertOkThenRefused(telemetry, 400, 3);
    // The other user's buckets are full.
    ApiClient other = phone.as(EndToEnd.token(app, 112, "phone"));
    assertThat(other.post("/v1/reads", "{\"convId\":\"" + conv + "\",\"seq\":1}").status()).isEqualTo(202);
    assertThat(other.post("/v1/groups", "{\"name\":\"mine\",\"members\":[\"111\"]}").status()).isEqualTo(201);
  }

  @Test
  void draftsTypedQuicklyWriteTheFirstAndTheLastOnly() {
    String conv = "d:121:122";
    ApiClient phone = EndToEnd.client(app, 121, "phone");
    assertThat(phone.post(messages(conv), send("hello")).status()).isEqualTo(200);
    try (StreamClient laptop = StreamClient.withHeader(app.httpPort(), EndToEnd.token(app, 121, "laptop"))) {
      laptop.next(StreamClient.ofType("sync"), WAIT);
      List<String> statuses = new ArrayList<>();
      for (int i = 1; i <= 8; i++) {
        ApiClient.Response answer = phone.put("/v1/conversations/" + conv + "/draft", "{\"text\":\"" + "x".repeat(i) + "\"}");
        assertThat(answer.status()).isEqualTo(202);
        statuses.add(answer.body().path("status").asText());
      }
      assertThat(statuses.get(0)).isEqualTo("accepted");
      assertThat(statuses.subList(1, statuses.size())).containsOnly("coalesced");
      // Typing quickly, the first is written at once and the last when the window ends.
      assertThat(laptop.next(StreamClient.ofType("draft"), WAIT).path("text").asText()).isEqualTo("x");
      assertThat(laptop.next(StreamClient.ofType("draft"), WAIT).path("text").asText()).isEqualTo("xxxxxxxx");
    }
    assertThat(phone.get("/v1/conversations/" + conv).body().path("draft").asText()).isEqualTo("xxxxxxxx");
  }

  @Test
  void socketsPastTheCapAreRefusedBeforeTheirHandshakeAndADeviceReplacesItsOwn() {
    List<StreamClient> open = new ArrayList<>();
    try {
      for (String device : List.of("a", "b", "c")) {
        StreamClient socket = StreamClient.withHeader(app.httpPort(), EndToEnd.token(app, 131, device));
        socket.next(StreamClient.ofType("sync"), WAIT);
        open.add(socket);
      }
      // Refused before the upgrade: 429, nothing of a socket made.
      assertUpgradeRefused(app, 131, "d");
      // Device a again: a reconnect, which closes the old socket, not one past the cap.
      StreamClient again = StreamClient.withHeader(app.httpPort(), EndToEnd.token(app, 131, "a"));
      open.add(again);
      assertThat(again.next(WAIT).path("type").asText()).isEqualTo("sync");
      assertThat(open.get(0).closeCode(WAIT)).isEqualTo(4409);
      // Another user is untouched.
      try (StreamClient other = StreamClient.withHeader(app.httpPort(), EndToEnd.token(app, 132, "a"))) {
        other.next(StreamClient.ofType("sync"), WAIT);
      }
      assertThat(metrics()).contains("seqsync_rate_limited_total{limit=\"sockets_user\"}");
    } finally {
      open.forEach(StreamClient::close);
    }
  }

  @Test
  void framesOverASocketsRateGetAnErrorWithTheWaitAndAFloodClosesIt() {
    try (StreamClient socket = StreamClient.withHeader(app.httpPort(), EndToEnd.token(app, 141, "phone"))) {
      socket.next(StreamClient.ofType("sync"), WAIT);
      for (int i = 0; i < 6; i++) {
        socket.send("{\"type\":\"ping\"}");
      }
      for (int i = 0; i < 5; i++) {
        assertThat(socket.next(WAIT).path("type").asText()).isEqualTo("pong");
      }
      JsonNode limited = socket.next(WAIT);
      assertThat(limited.path("type").asText()).isEqualTo("error");
      assertThat(limited.path("error").path("code").asText()).isEqualTo("rate_limited");
      assertThat(limited.path("retryAfterMs").asLong()).isPositive();
      // Going on regardless: closed with 1008 (the sends after the close fail; the code is what counts).
      for (int i = 0; i < 200 && socket.trySend("{\"type\":\"ping\"}"); i++) {
        // flooding
      }
      assertThat(socket.closeCode(WAIT)).isEqualTo(1008);
    }
  }

  @Test
  void aUserOnTwoInstancesHasOneBudget() {
    Map<String, String> settings = new HashMap<>(LIMITS);
    settings.putAll(Map.of("kafka.bootstrap-servers", app.stack().kafkaBootstrapServers(),
        "postgres.jdbc-url", app.stack().postgresJdbcUrl(), "redis.uri", app.stack().redisUri()));
    try (SeqsyncApp second = SeqsyncApp.start(EndToEnd.config(dir.resolve("second"), settings))) {
      String conv = "d:151:152";
      ApiClient viaFirst = EndToEnd.client(app, 151, "phone");
      for (int i = 0; i < 3; i++) {
        assertThat(viaFirst.post(messages(conv), send("first-" + i)).status()).isEqualTo(200);
      }
      ApiClient viaSecond = new ApiClient(second.httpPort(), EndToEnd.token(app, 151, "phone"));
      assertOkThenRefused(flood(i -> viaSecond.post(messages(conv), send("second-" + i)), 6), 200, 2);

      // Sockets: three on the first instance are the user's cap on the second too. The second's own
      // count is 0, so the socket is upgraded, then closed with 4429 before its handshake.
      List<StreamClient> open = new ArrayList<>();
      try {
        for (String device : List.of("a", "b", "c")) {
          open.add(StreamClient.withHeader(app.httpPort(), EndToEnd.token(app, 153, device)));
          open.get(open.size() - 1).next(StreamClient.ofType("sync"), WAIT);
        }
        try (StreamClient fourth = StreamClient.withHeader(second.httpPort(), EndToEnd.token(app, 153, "d"))) {
          assertThat(fourth.closeCode(WAIT)).isEqualTo(4429);
        }
      } finally {
        open.forEach(StreamClient::close);
      }
    }
  }

  private static void assertUpgradeRefused(SeqsyncApp to, long userId, String deviceId) {
    assertThatThrownBy(() -> StreamClient.withHeader(to.httpPort(), EndToEnd.token(app, userId, deviceId)).close())
        .cause().isInstanceOfSatisfying(WebSocketHandshakeException.class,
            refused -> assertThat(refused.getResponse().statusCode()).isEqualTo(429));
  }

  // Calls until the first 429 or max calls.
  private static List<ApiClient.Response> flood(IntFunction<ApiClient.Response> call, int max) {
    List<ApiClient.Response> answers = new ArrayList<>();
    for (int i = 0; i < max; i++) {
      ApiClient.Response answer = call.apply(i);
      answers.add(answer);
      if (answer.status() == 429) {
        break;
      }
    }
    return answers;
  }

  private static void assertOkThenRefused(List<ApiClient.Response> answers, int ok, int admitted) {
    assertThat(answers).hasSize(admitted + 1);
    assertThat(answers.subList(0, admitted)).extracting(ApiClient.Response::status).containsOnly(ok);
    assertRefused(answers.get(admitted));
  }

  private static void assertRefused(ApiClient.Response answer) {
    assertThat(answer.status()).isEqualTo(429);
    assertThat(answer.body().path("error").path("code").asText()).isEqualTo("rate_limited");
    assertThat(Long.parseLong(answer.retryAfter())).isPositive();
  }

  private static String messages(String conv) {
    return "/v1/conversations/" + conv + "/messages";
  }

  private static String send(String clientMsgId) {
    return "{\"clientMsgId\":\"" + clientMsgId + "\",\"type\":\"text\",\"content\":\"" + clientMsgId + "\"}";
  }

  // The user's groups in the list, once it shows at least {@code expected} (it is projected after the commit).
  private static List<String> listedGroups(ApiClient client, int expected) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      List<String> groups = new ArrayList<>();
      client.get("/v1/conversations?limit=100").body().path("conversations")
          .forEach(entry -> groups.add(entry.path("convId").asText()));
      groups.removeIf(convId -> !convId.startsWith("g:"));
      if (groups.size() >= expected || System.nanoTime() > deadline) {
        return groups;
      }
      sleep(Duration.ofMillis(100));
    }
  }

  private static String metrics() {
    try {
      return HttpClient.newHttpClient().send(HttpRequest.newBuilder(
          URI.create("http://127.0.0.1:" + app.httpPort() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

}
