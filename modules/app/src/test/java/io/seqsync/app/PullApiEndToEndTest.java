package io.seqsync.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.seqsync.ingress.auth.Tokens;
import io.seqsync.testkit.ApiClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The pull API over real HTTP on the real stack (embedded Kafka, PostgreSQL and Redis; sequencer,
 * projector and ingress in this process): the acceptance of the projection issue.
 */
class PullApiEndToEndTest extends EndToEndTest {
  private static final String CONV = "d:101:202";

  private static ApiClient alice;
  private static ApiClient bob;

  @BeforeAll
  static void clients() {
    alice = new ApiClient(app.httpPort(), app.tokens().mint(101, "phone", Duration.ofHours(1)));
    bob = new ApiClient(app.httpPort(), app.tokens().mint(202, "laptop", Duration.ofHours(1)));
  }

  @Test
  void anOfflineDeviceCatchesUpPageByPage() {
    List<JsonNode> sent = new ArrayList<>();
    for (int i = 1; i <= 120; i++) {
      ApiClient.Response response = alice.post("/v1/conversations/" + CONV + "/messages",
          "{\"clientMsgId\":\"offline-" + i + "\",\"type\":\"text\",\"content\":\"message " + i + "\"}");
      assertThat(response.status()).as("send %d: %s", i, response.body()).isEqualTo(200);
      assertThat(response.body().get("duplicate").asBoolean()).isFalse();
      sent.add(response.body().get("message"));
    }
    assertThat(sent).extracting(message -> message.get("seq").asLong())
        .containsExactlyElementsOf(rangeClosed(1, 120));

    ApiClient.Response sync = bob.post("/v1/sync", "{\"cursors\":{}}");
    assertThat(sync.status()).isEqualTo(200);
    JsonNode listed = only(sync.body().get("conversations"), CONV);
    assertThat(listed.get("latestSeq").asLong()).isEqualTo(120);
    assertThat(listed.get("deviceCursor").asLong()).isZero();

    ApiClient.Response first = bob.get("/v1/conversations/" + CONV + "/messages");
    assertPage(first, 1, 50, true);
    ApiClient.Response second = bob.get("/v1/conversations/" + CONV + "/messages?after="
        + first.body().get("nextAfter").asLong());
    assertPage(second, 51, 100, true);
    ApiClient.Response third = bob.get("/v1/conversations/" + CONV + "/messages?after="
        + second.body().get("nextAfter").asLong());
    assertPage(third, 101, 120, false);
    assertThat(third.body().get("messages").get(0).get("msgId").asText())
        .isEqualTo(sent.get(100).get("msgId").asText());

    ApiClient.Response retry = alice.post("/v1/conversations/" + CONV + "/messages",
        "{\"clientMsgId\":\"offline-7\",\"type\":\"text\",\"content\":\"message 7\"}");
    assertThat(retry.status()).isEqualTo(200);
    assertThat(retry.body().get("duplicate").asBoolean()).isTrue();
    assertThat(retry.body().get("message").get("msgId").asText()).isEqualTo(sent.get(6).get("msgId").asText());
    assertThat(retry.body().get("message").get("seq").asLong()).isEqualTo(7);

    ApiClient.Response ahead = bob.get("/v1/conversations/" + CONV + "/messages?after=500");
    assertThat(ahead.status()).isEqualTo(200);
    assertThat(ahead.body().get("realign").asLong()).isEqualTo(120);
    assertThat(seqs(ahead.body())).containsExactlyElementsOf(rangeClosed(101, 120));

    ApiClient.Response latest = bob.get("/v1/conversations/" + CONV + "/messages?last=20");
    assertThat(seqs(latest.body())).containsExactlyElementsOf(rangeClosed(101, 120));
    ApiClient.Response older = bob.get("/v1/conversations/" + CONV + "/messages?before=101&limit=50");
    assertThat(seqs(older.body())).containsExactlyElementsOf(rangeClosed(51, 100));
    assertThat(older.body().get("hasMore").asBoolean()).isTrue();
    ApiClient.Response oldest = bob.get("/v1/conversations/" + CONV + "/messages?before=51&limit=50");
    assertThat(seqs(oldest.body())).containsExactlyElementsOf(rangeClosed(1, 50));
    assertThat(oldest.body().get("hasMore").asBoolean()).isFalse();

    ApiClient.Response gap = bob.get("/v1/conversations/" + CONV + "/messages?after=36&until=41");
    assertThat(seqs(gap.body())).containsExactly(37L, 38L, 39L, 40L, 41L);
  }

  @Test
  void onlyMembersWithValidTokensGetIn() {
    ApiClient carol = alice.as(app.tokens().mint(203, "tablet", Duration.ofHours(1)));
    assertThat(carol.get("/v1/conversations/" + CONV + "/messages").status()).isEqualTo(403);
    assertThat(carol.post("/v1/conversations/" + CONV + "/messages",
        "{\"clientMsgId\":\"x\",\"type\":\"text\",\"content\":\"let me in\"}").status()).isEqualTo(403);

    assertThat(alice.as(null).get("/v1/conversations/" + CONV + "/messages").status()).isEqualTo(401);
    String forged = new Tokens("another-secret-that-is-at-least-32-bytes-long").mint(101, "phone", Duration.ofHours(1));
    ApiClient.Response rejected = alice.as(forged).get("/v1/conversations/" + CONV + "/messages");
    assertThat(rejected.status()).isEqualTo(401);
    assertThat(rejected.body().get("error").get("code").asText()).isNotBlank();
  }

  private static void assertPage(ApiClient.Response page, long from, long to, boolean hasMore) {
    assertThat(page.status()).isEqualTo(200);
    assertThat(seqs(page.body())).containsExactlyElementsOf(rangeClosed(from, to));
    assertThat(page.body().get("hasMore").asBoolean()).isEqualTo(hasMore);
    assertThat(page.body().get("nextAfter").asLong()).isEqualTo(to);
    assertThat(page.body().get("latestSeq").asLong()).isEqualTo(120);
  }

  private static JsonNode only(JsonNode conversations, String convId) {
    List<JsonNode> matching = new ArrayList<>();
    conversations.forEach(conversation -> {
      if (conversation.get("convId").asText().equals(convId)) {
        matching.add(conversation);
      }
    });
    assertThat(matching).hasSize(1);
    return matching.get(0);
  }

  private static List<Long> seqs(JsonNode page) {
    List<Long> seqs = new ArrayList<>();
    page.get("messages").forEach(message -> seqs.add(message.get("seq").asLong()));
    return seqs;
  }

  private static List<Long> rangeClosed(long from, long to) {
    List<Long> values = new ArrayList<>();
    for (long value = from; value <= to; value++) {
      values.add(value);
    }
    return values;
  }
}
