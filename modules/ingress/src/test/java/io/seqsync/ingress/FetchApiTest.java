package io.seqsync.ingress;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seqsync.ingress.api.AccessControl;
import io.seqsync.ingress.api.FetchRequest;
import io.seqsync.ingress.api.FetchService;
import io.seqsync.ingress.api.SyncDepth;
import io.seqsync.ingress.api.Views;
import io.seqsync.ingress.auth.Caller;
import io.seqsync.ingress.auth.Tokens;
import io.seqsync.ingress.http.Json;
import io.seqsync.store.ConversationQueries;
import io.seqsync.store.MessageQueries;
import io.seqsync.store.StoredMessage;
import io.seqsync.store.replica.Routed;
import java.io.ByteArrayInputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Fetch semantics (R8-R11, R16) and authentication, over HTTP, on rows written with plain SQL. */
class FetchApiTest {
  private static final String CONV = "d:1:2";
  private static final String MESSAGES = "/v1/conversations/" + CONV + "/messages";

  @RegisterExtension
  static final FetchStackExtension stack = FetchStackExtension.appPerTest(Map.of());

  private TestApp test;
  private String phone;

  @BeforeEach
  void rows() {
    test = stack.app();
    test.rows.conversation(CONV, 1, 2).messages(CONV, 1, 120, 2);
    phone = test.token(1, "phone");
  }

  @Test
  void withoutAfterItStartsFromThisDevicesServerCursor() {
    JsonNode first = fetch("", phone);
    assertThat(seqs(first)).containsExactlyElementsOf(range(1, 50));
    assertThat(first.get("hasMore").asBoolean()).isTrue();
    assertThat(first.get("nextAfter").asLong()).isEqualTo(50);
    assertThat(first.get("latestSeq").asLong()).isEqualTo(120);
    assertThat(first.has("realign")).isFalse();

    test.rows.deviceCursor(1, "phone", CONV, 100);
    JsonNode rest = fetch("", phone);
    assertThat(seqs(rest)).containsExactlyElementsOf(range(101, 120));
    assertThat(rest.get("hasMore").asBoolean()).isFalse();
    assertThat(rest.get("nextAfter").asLong()).isEqualTo(120);

    // Another device of the same user has its own cursor (R11).
    assertThat(seqs(fetch("", test.token(1, "laptop")))).containsExactlyElementsOf(range(1, 50));
    // The cursor only sets where to start; until still bounds the range.
    assertThat(seqs(fetch("?until=103", phone))).containsExactly(101L, 102L, 103L);
  }

  @Test
  void afterPagesForward() {
    JsonNode page = fetch("?after=60", phone);
    assertThat(seqs(page)).containsExactlyElementsOf(range(61, 110));
    assertThat(page.get("hasMore").asBoolean()).isTrue();
    assertThat(page.get("nextAfter").asLong()).isEqualTo(110);

    JsonNode next = fetch("?after=110&limit=5", phone);
    assertThat(seqs(next)).containsExactlyElementsOf(range(111, 115));
    assertThat(next.get("hasMore").asBoolean()).isTrue();

    JsonNode caughtUp = fetch("?after=120", phone);
    assertThat(caughtUp.get("messages")).isEmpty();
    assertThat(caughtUp.get("hasMore").asBoolean()).isFalse();
    assertThat(caughtUp.get("nextAfter").asLong()).isEqualTo(120);
    assertThat(caughtUp.get("latestSeq").asLong()).isEqualTo(120);
    assertThat(caughtUp.has("realign")).isFalse();
  }

  @Test
  void eachCatchUpsPagingDepthIsInTheMetrics() {
    fetch("", phone); // 1-50 from the cursor
    fetch("?after=50", phone);
    fetch("?after=100", phone); // 101-120: caught up in three pages
    fetch("?after=110&until=115", phone); // a range fills a gap: no catch-up
    fetch("?after=120", test.token(1, "laptop")); // nothing new: one page

    String metrics = test.http.get("/metrics", null).body();
    assertThat(metrics)
        .contains("seqsync_fetch_sync_pages_count 2")
        .contains("seqsync_fetch_sync_pages_sum 4")
        .contains("seqsync_fetch_sync_pages_bucket{le=\"1.0\"} 1")
        .contains("seqsync_fetch_sync_pages_bucket{le=\"2.0\"} 1")
        .contains("seqsync_fetch_sync_pages_bucket{le=\"3.0\"} 2");
  }

  @Test
  void afterAndUntilFetchExactlyThatRange() {
    JsonNode gap = fetch("?after=10&until=15", phone);
    assertThat(seqs(gap)).containsExactlyElementsOf(range(11, 15));
    assertThat(gap.get("hasMore").asBoolean()).isFalse();
    assertThat(gap.get("nextAfter").asLong()).isEqualTo(15);

    JsonNode wide = fetch("?after=10&until=100&limit=20", phone);
    assertThat(seqs(wide)).containsExactlyElementsOf(range(11, 30));
    assertThat(wide.get("hasMore").asBoolean()).isTrue();

    JsonNode emptyRange = fetch("?after=15&until=15", phone);
    assertThat(emptyRange.get("messages")).isEmpty();
    assertThat(emptyRange.get("nextAfter").asLong()).isEqualTo(15);
  }

  @Test
  void lastGivesTheLatestAndBeforePagesBackwards() {
    JsonNode firstScreen = fetch("?last=20", phone);
    assertThat(seqs(firstScreen)).containsExactlyElementsOf(range(101, 120));
    assertThat(firstScreen.get("hasMore").asBoolean()).isTrue();
    assertThat(firstScreen.get("nextAfter").asLong()).isEqualTo(120);

    List<Long> history = new ArrayList<>(seqs(firstScreen));
    long before = history.get(0);
    JsonNode page;
    do {
      page = fetch("?before=" + before + "&limit=50", phone);
      List<Long> older = seqs(page);
      assertThat(older).isSortedAccordingTo(Long::compare);
      history.addAll(0, older);
      before = older.get(0);
    } while (page.get("hasMore").asBoolean());
    assertThat(history).containsExactlyElementsOf(range(1, 120));

    JsonNode second = fetch("?before=101", phone);
    assertThat(seqs(second)).containsExactlyElementsOf(range(51, 100));
    assertThat(second.get("hasMore").asBoolean()).isTrue();
    JsonNode oldest = fetch("?before=51", phone);
    assertThat(seqs(oldest)).containsExactlyElementsOf(range(1, 50));
    assertThat(oldest.get("hasMore").asBoolean()).isFalse();
    JsonNode nothing = fetch("?before=1", phone);
    assertThat(nothing.get("messages")).isEmpty();
    assertThat(nothing.get("hasMore").asBoolean()).isFalse();
  }

  @Test
  void aCursorAheadOfTheServerRealignsWithTheLatestTwenty() {
    JsonNode page = fetch("?after=500", phone);
    assertThat(seqs(page)).containsExactlyElementsOf(range(101, 120));
    assertThat(page.get("realign").asLong()).isEqualTo(120);
    assertThat(page.get("latestSeq").asLong()).isEqualTo(120);
    assertThat(page.get("nextAfter").asLong()).isEqualTo(120);
    assertThat(page.get("hasMore").asBoolean()).isFalse();

    JsonNode empty = fetch("?after=7", "/v1/conversations/d:1:9/messages", phone);
    assertThat(empty.get("messages")).isEmpty();
    assertThat(empty.get("realign").asLong()).isZero();
    assertThat(empty.get("latestSeq").asLong()).isZero();
  }

  @Test
  void aConversationWithoutMessagesIsAnEmptyPage() {
    JsonNode page = fetch("", "/v1/conversations/d:1:9/messages", phone);
    assertThat(page.get("messages")).isEmpty();
    assertThat(page.get("hasMore").asBoolean()).isFalse();
    assertThat(page.get("nextAfter").asLong()).isZero();
    assertThat(page.get("latestSeq").asLong()).isZero();
  }

  @Test
  void messagesHaveTheApiShape() {
    test.rows.conversation("g:team", 1, 7).message("g:team", 1, 9_007_199_254_740_993L, 7, "image", "https://x/y.png");
    JsonNode message = fetch("?after=0", "/v1/conversations/g:team/messages", phone).get("messages").get(0);

    assertThat(Http.JSON.convertValue(message, Map.class).keySet()).containsExactlyInAnyOrder("msgId", "convId", "seq",
        "senderId", "senderDevice", "clientMsgId", "type", "content", "createTime", "recalled");
    assertThat(message.get("msgId").isTextual()).isTrue();
    assertThat(message.get("msgId").asText()).isEqualTo("9007199254740993");
    assertThat(message.get("senderId").asText()).isEqualTo("7");
    assertThat(message.get("senderId").isTextual()).isTrue();
    assertThat(message.get("seq").isIntegralNumber()).isTrue();
    assertThat(message.get("createTime").isIntegralNumber()).isTrue();
    assertThat(message.get("convId").asText()).isEqualTo("g:team");
    assertThat(message.get("type").asText()).isEqualTo("image");
    assertThat(message.get("recalled").asBoolean()).isFalse();

    test.rows.recalled(CONV, 3);
    JsonNode recalled = fetch("?after=2&limit=1", phone).get("messages").get(0);
    assertThat(recalled.get("recalled").asBoolean()).isTrue();
    assertThat(recalled.get("content").asText()).isEqualTo(StoredMessage.RECALLED_PLACEHOLDER);
  }

  @Test
  void pagesAreExactlyWhatTheMapperMakesOfThePage() throws Exception {
    test.rows.message(CONV, 121, 121_000, 1, "text", "h\u00e9llo \u4f60\u597d \ud83d\ude00 \"q\" \\ \n \u2028")
        .recalled(CONV, 119);
    FetchService service = new FetchService(Routed.primaryOnly(new MessageQueries(test.database.jdbi())),
        new ConversationQueries(test.database.jdbi()), new SyncDepth(new SimpleMeterRegistry(), System::nanoTime));

    for (String query : List.of("?after=100", "?last=5", "?before=3", "?after=500", "?after=200&until=300")) {
      Http.Response response = test.http.get(MESSAGES + query, phone);
      FetchRequest request = FetchRequest.parse(queryMap(query));
      Views.Fetched expected = service.fetch(new Caller(1, "phone"), AccessControl.convId(CONV), request, 0);
      assertThat(response.status()).isEqualTo(200);
      assertThat(response.headers().firstValue("Content-Type")).contains("application/json");
      assertThat(response.body()).as(query).isEqualTo(Json.MAPPER.writeValueAsString(expected));
      // Sent whole, as ctx.json did, not chunked.
      assertThat(response.headers().firstValue("Content-Length"))
          .contains(Integer.toString(response.body().getBytes(StandardCharsets.UTF_8).length));
      assertThat(response.headers().firstValue("Transfer-Encoding")).isEmpty();
    }
  }

  @Test
  void aClientThatAcceptsGzipGetsThePageCompressed() throws Exception {
    String expected = test.http.get(MESSAGES + "?after=0", phone).body();
    HttpResponse<byte[]> gzipped = HttpClient.newHttpClient().send(test.http.builder(MESSAGES + "?after=0", phone)
        .header("Accept-Encoding", "gzip").GET().build(), HttpResponse.BodyHandlers.ofByteArray());

    assertThat(gzipped.statusCode()).isEqualTo(200);
    assertThat(gzipped.headers().firstValue("Content-Encoding")).contains("gzip");
    try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzipped.body()))) {
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo(expected);
    }
    assertThat(expected.length()).isGreaterThan(1500); // Javalin compresses from 1,500 bytes
  }

  @Test
  void headAnswersTheHeadersOfThePageWithoutItsBody() throws Exception {
    String page = test.http.get(MESSAGES + "?after=0", phone).body();
    HttpResponse<byte[]> head = HttpClient.newHttpClient().send(test.http.builder(MESSAGES + "?after=0", phone)
        .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofByteArray());

    assertThat(head.statusCode()).isEqualTo(200);
    assertThat(head.headers().firstValue("Content-Type")).hasValue("application/json");
    assertThat(head.headers().firstValueAsLong("Content-Length")).hasValue(page.getBytes(StandardCharsets.UTF_8).length);
    assertThat(head.body()).isEmpty();
  }

  @Test
  void badParametersAre400() {
    for (String query : List.of("?limit=0", "?limit=-1", "?limit=51", "?limit=abc", "?limit=1.5", "?limit=",
        "?after=-1", "?after=x", "?after=99999999999999999999", "?until=-3", "?before=0", "?last=0", "?last=51",
        "?last=20&after=3", "?last=20&limit=10", "?before=9&after=3", "?before=9&until=20", "?after=10&until=5",
        "?after=1&after=2")) {
      Http.Response response = test.http.get(MESSAGES + query, phone);
      assertThat(response.status()).as(query).isEqualTo(400);
      assertThat(response.errorCode()).as(query).isEqualTo("invalid_parameter");
      assertThat(response.json().path("error").path("message").asText()).as(query).isNotBlank();
    }
    assertThat(test.http.get(MESSAGES + "?limit=50", phone).status()).isEqualTo(200);
    assertThat(test.http.get(MESSAGES + "?last=50", phone).status()).isEqualTo(200);
  }

  @Test
  void onlyMembersMayFetch() {
    Http.Response stranger = test.http.get(MESSAGES, test.token(3, "phone"));
    assertThat(stranger.status()).isEqualTo(403);
    assertThat(stranger.errorCode()).isEqualTo("not_a_member");

    test.rows.conversation("g:team", 1, 5);
    assertThat(test.http.get("/v1/conversations/g:team/messages", phone).status()).isEqualTo(200);
    assertThat(test.http.get("/v1/conversations/g:team/messages", test.token(2, "phone")).status()).isEqualTo(403);
    Http.Response unknown = test.http.get("/v1/conversations/g:nope/messages", phone);
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.errorCode()).isEqualTo("no_such_conversation");

    for (String bad : List.of("x:1", "d:2:1", "d:1:1", "d:0:1", "g:", "g:a%20b", "d:1:2:3")) {
      Http.Response response = test.http.get("/v1/conversations/" + bad + "/messages", phone);
      assertThat(response.status()).as(bad).isEqualTo(400);
      assertThat(response.errorCode()).as(bad).isEqualTo("invalid_conv_id");
    }
  }

  @Test
  void tokensAreRequiredAndChecked() {
    Http.Response missing = test.http.get(MESSAGES, null);
    assertThat(missing.status()).isEqualTo(401);
    assertThat(missing.errorCode()).isEqualTo("missing_token");
    assertThat(missing.headers().firstValue("WWW-Authenticate")).contains("Bearer");

    String forged = new Tokens("another-secret-another-secret-another-secret").mint(1, "phone", Duration.ofHours(1));
    String expired = test.tokens.mint(1, "phone", Instant.now().minusSeconds(3600));
    Map<String, String> cases = Map.of(
        forged, "invalid_token",
        expired, "token_expired",
        "not-a-jwt", "invalid_token",
        phone.substring(0, phone.length() - 2), "invalid_token");
    cases.forEach((token, code) -> {
      Http.Response response = test.http.get(MESSAGES, token);
      assertThat(response.status()).isEqualTo(401);
      assertThat(response.errorCode()).isEqualTo(code);
    });

    Http.Response basic = test.http.send(test.http.builder(MESSAGES, null)
        .header("Authorization", "Basic dXNlcjpwYXNz").GET().build());
    assertThat(basic.status()).isEqualTo(401);
    assertThat(basic.errorCode()).isEqualTo("invalid_token");

    assertThat(test.http.get(MESSAGES, phone).status()).isEqualTo(200);
  }

  private JsonNode fetch(String query, String token) {
    return fetch(query, MESSAGES, token);
  }

  private JsonNode fetch(String query, String path, String token) {
    Http.Response response = test.http.get(path + query, token);
    assertThat(response.status()).as(response.body()).isEqualTo(200);
    return response.json();
  }

  private static Map<String, List<String>> queryMap(String query) {
    Map<String, List<String>> map = new java.util.HashMap<>();
    for (String pair : query.substring(1).split("&")) {
      String[] nameValue = pair.split("=", 2);
      map.put(nameValue[0], List.of(nameValue[1]));
    }
    return map;
  }

  private static List<Long> seqs(JsonNode page) {
    List<Long> seqs = new ArrayList<>();
    page.get("messages").forEach(message -> seqs.add(message.get("seq").asLong()));
    return seqs;
  }

  private static List<Long> range(long from, long to) {
    return LongStream.rangeClosed(from, to).boxed().toList();
  }
}
