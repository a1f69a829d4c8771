package io.seqsync.app;

import static io.seqsync.app.EndToEnd.awaitActivation;
import static io.seqsync.app.EndToEnd.ok;
import static io.seqsync.app.EndToEnd.send;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.seqsync.ingress.auth.Tokens;
import io.seqsync.testkit.ApiClient;
import io.seqsync.testkit.StreamClient;
import java.net.http.WebSocketHandshakeException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 5's authorization matrix: every endpoint of API.md that exists, in a direct conversation
 * and in a group, called with no token, an expired token, a forged signature, a valid token of a
 * non-member and a valid token of a member, each with the status it must get. The caller is
 * always the token: ids in a body never speak for anyone else.
 */
class AuthorizationMatrixTest extends EndToEndTest {
  private static final long MEMBER = 601;
  private static final long PEER = 602;
  private static final long OUTSIDER = 699;
  private static final String DIRECT = "d:601:602";
  private static final AtomicLong NEW_USERS = new AtomicLong(700);
  private static String group;

  /** How a caller is identified. */
  enum Caller { NO_TOKEN, EXPIRED, FORGED, NON_MEMBER, MEMBER }

  /** One HTTP call; {@code path} and {@code body} may use the conversation. */
  record Call(String method, String path, String body) {}

  /** An endpoint: the call it makes in a conversation, and what a member gets. */
  record Route(String name, Function<String, Call> call, int memberStatus, boolean membersOnly) {}

  private static final List<Route> ROUTES = List.of(
      new Route("send", conv -> new Call("POST", messages(conv),
          "{\"clientMsgId\":\"" + UUID.randomUUID() + "\",\"type\":\"text\",\"content\":\"hi\"}"), 200, true),
      new Route("fetch", conv -> new Call("GET", messages(conv) + "?after=0", null), 200, true),
      new Route("fetch last", conv -> new Call("GET", messages(conv) + "?last=5", null), 200, true),
      new Route("archive", conv -> new Call("GET", "/v1/archive/messages?convId=" + conv, null), 200, true),
      new Route("recall", conv -> new Call("POST", messages(conv) + "/" + sentByMember(conv) + "/recall", ""), 200, true),
      new Route("edit", conv -> new Call("POST", messages(conv) + "/" + sentByMember(conv) + "/edit",
          "{\"content\":\"edited\"}"), 200, true),
      new Route("react", conv -> new Call("PUT", messages(conv) + "/" + sentByMember(conv) + "/reactions/%F0%9F%91%8D",
          ""), 200, true),
      new Route("activation", conv -> new Call("GET", "/v1/conversations/" + conv, null), 200, true),
      new Route("draft", conv -> new Call("PUT", "/v1/conversations/" + conv + "/draft", "{\"text\":\"d\"}"), 202, true),
      new Route("acks", conv -> new Call("POST", "/v1/acks",
          "{\"acks\":[{\"convId\":\"" + conv + "\",\"seq\":1}]}"), 202, true),
      new Route("reads", conv -> new Call("POST", "/v1/reads", "{\"convId\":\"" + conv + "\",\"seq\":1}"), 202, true),
      new Route("rendered", conv -> new Call("POST", "/v1/telemetry/rendered", "{\"items\":[{\"msgId\":\"1\",\"convId\":\""
          + conv + "\",\"seq\":1,\"sendTime\":1,\"renderTime\":2}]}"), 202, true),
      new Route("render failures", conv -> new Call("POST", "/v1/telemetry/failures", "{\"items\":[{\"msgId\":\"1\","
          + "\"convId\":\"" + conv + "\",\"seq\":1,\"reason\":\"unsupported\"}]}"), 202, true),
      new Route("list", conv -> new Call("GET", "/v1/conversations", null), 200, false),
      new Route("sync", conv -> new Call("POST", "/v1/sync", "{\"cursors\":{\"" + conv + "\":0}}"), 200, false),
      new Route("create group", conv -> new Call("POST", "/v1/groups",
          "{\"name\":\"g\",\"members\":[\"" + PEER + "\"]}"), 201, false));

  // Only for groups: the member (the group's owner) changes the membership, a role and the settings.
  private static final List<Route> GROUP_ROUTES = List.of(
      new Route("members", conv -> new Call("POST", "/v1/conversations/" + conv
          + "/members", "{\"add\":[\"" + NEW_USERS.incrementAndGet() + "\"]}"), 202, true),
      new Route("roles", conv -> new Call("PUT", "/v1/conversations/" + conv + "/roles/" + PEER,
          "{\"role\":\"admin\"}"), 202, true),
      new Route("settings", conv -> new Call("PUT", "/v1/conversations/" + conv + "/settings",
          "{\"membersCanInvite\":true}"), 202, true));

  @BeforeAll
  static void conversations() {
    send(client(MEMBER, "phone"), DIRECT, 1);
    JsonNode created = ok201(client(MEMBER, "phone").post("/v1/groups",
        "{\"name\":\"Matrix\",\"members\":[\"" + PEER + "\"]}"));
    group = created.get("convId").asText();
  }

  @Test
  void everyEndpointAnswersEveryKindOfCallerAsItMust() {
    List<String> mismatches = new ArrayList<>();
    for (String conv : List.of(DIRECT, group)) {
      List<Route> routes = new ArrayList<>(ROUTES);
      if (conv.startsWith("g:")) {
        routes.addAll(GROUP_ROUTES);
      }
      for (Route route : routes) {
        for (Caller caller : Caller.values()) {
          int expected = expected(route, caller);
          Call call = route.call().apply(conv);
          ApiClient.Response response = call(client(caller), call);
          if (response.status() != expected) {
            mismatches.add(route.name() + " in " + conv + " as " + caller + ": expected " + expected + ", got "
                + response.status() + " " + response.body());
          } else if (expected >= 400) {
            assertThat(response.body().get("error").get("code").asText()).as(route.name()).isNotBlank();
          }
        }
      }
    }
    assertThat(mismatches).isEmpty();
  }

  @Test
  void healthAndMetricsNeedNoToken() {
    ApiClient anonymous = new ApiClient(app.httpPort(), null);
    assertThat(anonymous.get("/health").status()).isEqualTo(200);
    assertThat(EndToEnd.metrics(app)).contains("seqsync_");
  }

  @Test
  void theStreamNeedsAValidToken() {
    for (String token : List.of("", expiredToken(), forgedToken(), "not.a.token")) {
      assertThatThrownBy(() -> StreamClient.withQueryToken(app.httpPort(), token))
          .as("token %s", token)
          .isInstanceOf(CompletionException.class)
          .hasCauseInstanceOf(WebSocketHandshakeException.class)
          .satisfies(e -> assertThat(((WebSocketHandshakeException) e.getCause()).getResponse().statusCode())
              .isEqualTo(401));
    }
    try (StreamClient stream = StreamClient.withQueryToken(app.httpPort(), EndToEnd.token(app, OUTSIDER, "phone"))) {
      assertThat(stream.next(Duration.ofSeconds(5)).get("type").asText()).isEqualTo("sync");
    }
  }

  @Test
  void idsInABodyNeverSpeakForAnotherUserOrDevice() {
    String conv = "d:611:612";
    send(client(612, "phone"), conv, 3);
    ApiClient caller = client(611, "phone");
    int read = caller.post("/v1/reads", "{\"convId\":\"" + conv + "\",\"seq\":2,\"userId\":\"612\"}").status();
    int ack = caller.post("/v1/acks",
        "{\"acks\":[{\"convId\":\"" + conv + "\",\"seq\":2,\"deviceId\":\"laptop\",\"userId\":\"612\"}]}").status();
    assertThat(List.of(read, ack)).as("accepted for the caller, or refused").allMatch(s -> s == 202 || s == 400);
    if (read == 202 && ack == 202) {
      awaitActivation(caller, conv, a -> a.get("readSeq").asLong() == 2 && a.get("deviceCursor").asLong() == 2);
    }
    // The peer's read position is their own send (3), untouched; the named device has no cursor.
    JsonNode peer = ok(client(612, "phone").get("/v1/conversations/" + conv));
    assertThat(peer.get("readSeq").asLong()).isEqualTo(3);
    assertThat(ok(client(611, "laptop").get("/v1/conversations/" + conv)).get("deviceCursor").asLong()).isZero();
  }

  private static int expected(Route route, Caller caller) {
    return switch (caller) {
      case NO_TOKEN, EXPIRED, FORGED -> 401;
      case NON_MEMBER -> route.membersOnly() ? 403 : route.memberStatus();
      case MEMBER -> route.memberStatus();
    };
  }

  private static ApiClient client(Caller caller) {
    return switch (caller) {
      case NO_TOKEN -> new ApiClient(app.httpPort(), null);
      case EXPIRED -> new ApiClient(app.httpPort(), expiredToken());
      case FORGED -> new ApiClient(app.httpPort(), forgedToken());
      case NON_MEMBER -> client(OUTSIDER, "phone");
      case MEMBER -> client(MEMBER, "phone");
    };
  }

  private static String expiredToken() {
    return app.tokens().mint(MEMBER, "phone", Instant.now().minusSeconds(60));
  }

  // Right claims, signed with another secret.
  private static String forgedToken() {
    return new Tokens("another-secret-another-secret-0123456789").mint(MEMBER, "phone", Duration.ofHours(1));
  }

  private static ApiClient.Response call(ApiClient client, Call call) {
    return switch (call.method()) {
      case "GET" -> client.get(call.path());
      case "POST" -> client.post(call.path(), call.body());
      case "PUT" -> client.put(call.path(), call.body());
      default -> throw new IllegalArgumentException(call.method());
    };
  }

  // A fresh message of the member's to recall (recalling one twice answers the first notice).
  private static long sentByMember(String conv) {
    return send(client(MEMBER, "phone"), conv, 1).get(0).get("seq").asLong();
  }

  private static String messages(String conv) {
    return "/v1/conversations/" + conv + "/messages";
  }

  private static JsonNode ok201(ApiClient.Response response) {
    assertThat(response.status()).as("%s", response.body()).isEqualTo(201);
    return response.body();
  }
}
