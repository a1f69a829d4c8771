package io.seqsync.ingress;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The reconnect handshake (R13) over HTTP. */
class SyncApiTest {
  @RegisterExtension
  static final FetchStackExtension stack = FetchStackExtension.appPerTest(Map.of());

  private TestApp test;
  private String phone;

  @BeforeEach
  void rows() {
    test = stack.app();
    phone = test.token(1, "phone");
    test.rows
        .conversation("d:1:2", 1, 2).messages("d:1:2", 1, 5, 2)
        .conversation("d:1:3", 1, 3).messages("d:1:3", 1, 2, 3)
        .conversation("g:team", 1, 2, 3).messages("g:team", 1, 3, 1)
        .conversation("d:2:3", 2, 3).messages("d:2:3", 1, 9, 2)
        .deviceCursor(1, "phone", "d:1:2", 5);
  }

  @Test
  void listsOnlyConversationsWithSomethingNewIncludingUnknownOnes() {
    // The device reports d:1:3 caught up; g:team it does not know; d:1:2 is caught up on the server.
    JsonNode answer = sync(phone, "{\"cursors\":{\"d:1:3\":2}}");
    assertThat(convIds(answer)).containsExactly("g:team");
    JsonNode team = answer.get("conversations").get(0);
    assertThat(team.get("latestSeq").asLong()).isEqualTo(3);
    assertThat(team.get("deviceCursor").asLong()).isZero();
    assertThat(team.get("readSeq").asLong()).isZero();
    assertThat(team.get("unread").asLong()).isZero(); // all three are the user's own
    assertThat(answer.get("serverTime").asLong()).isCloseTo(System.currentTimeMillis(), org.assertj.core.data.Offset.offset(60_000L));

    // Nothing reported: server cursors decide. Most recently active first.
    assertThat(convIds(sync(phone, "{}"))).containsExactly("g:team", "d:1:3");
    assertThat(convIds(sync(phone, "{\"cursors\":{}}"))).containsExactly("g:team", "d:1:3");
    // The client's cursor wins over the server's (a lost ack, R14).
    assertThat(convIds(sync(phone, "{\"cursors\":{\"d:1:2\":3,\"d:1:3\":2,\"g:team\":3}}"))).containsExactly("d:1:2");
    assertThat(sync(phone, "{\"cursors\":{\"d:1:2\":5,\"d:1:3\":2,\"g:team\":3}}").get("conversations")).isEmpty();
    // A conversation the caller is not in never shows, even when named.
    assertThat(convIds(sync(phone, "{\"cursors\":{\"d:2:3\":0,\"d:1:3\":2,\"g:team\":3}}"))).isEmpty();
  }

  @Test
  void rowsCarryCursorReadPositionAndUnread() {
    test.rows.readSeq(1, "d:1:2", 2).recalled("d:1:2", 4);
    JsonNode direct = sync(phone, "{\"cursors\":{\"d:1:2\":1}}").get("conversations").get(0);

    assertThat(Http.JSON.convertValue(direct, Map.class).keySet())
        .containsExactlyInAnyOrder("convId", "latestSeq", "deviceCursor", "readSeq", "unread", "messages", "limited");
    assertThat(direct.get("convId").asText()).isEqualTo("d:1:2");
    assertThat(direct.get("latestSeq").asLong()).isEqualTo(5);
    assertThat(direct.get("deviceCursor").asLong()).isEqualTo(5);
    assertThat(direct.get("readSeq").asLong()).isEqualTo(2);
    assertThat(direct.get("unread").asLong()).isEqualTo(2); // 3 and 5; 4 is recalled
    // Its first screen: what lies above the cursor the client reported, as a page carries it.
    assertThat(direct.get("messages").findValuesAsText("seq")).containsExactly("2", "3", "4", "5");
    assertThat(direct.get("messages").get(2).get("content").asText()).isEqualTo("[recalled]");
    assertThat(direct.get("limited").asBoolean()).isFalse();
  }

  @Test
  void devicesAreIndependent() {
    assertThat(convIds(sync(test.token(1, "laptop"), "{}"))).containsExactly("d:1:2", "g:team", "d:1:3");
    assertThat(convIds(sync(test.token(3, "phone"), "{}"))).containsExactly("d:2:3", "g:team", "d:1:3");
  }

  @Test
  void badBodiesAre400() {
    for (String body : List.of("", "[]", "null", "{", "{\"cursors\":[]}", "{\"cursors\":5}",
        "{\"cursors\":{\"d:1:2\":-1}}", "{\"cursors\":{\"d:1:2\":\"3\"}}", "{\"cursors\":{\"d:1:2\":1.5}}",
        "{\"cursors\":{\"nope\":1}}", "{\"cursors\":{\"d:1:2\":1,\"d:1:2\":2}}", "{} trailing")) {
      Http.Response response = test.http.post("/v1/sync", phone, body);
      assertThat(response.status()).as(body).isEqualTo(400);
      assertThat(response.errorCode()).as(body).isIn("invalid_json", "invalid_field", "invalid_conv_id");
    }
    assertThat(test.http.post("/v1/sync", null, "{}").status()).isEqualTo(401);
  }

  private JsonNode sync(String token, String body) {
    Http.Response response = test.http.post("/v1/sync", token, body);
    assertThat(response.status()).as(response.body()).isEqualTo(200);
    return response.json();
  }

  private static List<String> convIds(JsonNode answer) {
    List<String> ids = new ArrayList<>();
    answer.get("conversations").forEach(row -> ids.add(row.get("convId").asText()));
    return ids;
  }
}
