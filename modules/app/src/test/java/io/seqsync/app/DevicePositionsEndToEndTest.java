package io.seqsync.app;

import static io.seqsync.app.EndToEnd.accepted;
import static io.seqsync.app.EndToEnd.awaitActivation;
import static io.seqsync.app.EndToEnd.send;
import static io.seqsync.app.EndToEnd.seqs;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.seqsync.testkit.ApiClient;
import org.junit.jupiter.api.Test;

/**
 * Devices in step over real HTTP on the real stack: per-device acks and cursors (R11, R12, R14),
 * the user's read position (R18) and drafts (R21). Each test has a conversation of its own.
 */
class DevicePositionsEndToEndTest extends EndToEndTest {
  @Test
  void aCrashMidRenderResumesAfterTheLastAckedSeq() {
    String conv = "d:301:302";
    send(client(301, "phone"), conv, 50);
    ApiClient laptop = client(302, "laptop");
    assertThat(seqs(laptop.get(messages(conv)).body())).hasSize(50).startsWith(1L).endsWith(50L);

    accepted(laptop.post("/v1/acks", acks(conv, 30)));
    awaitActivation(laptop, conv, a -> a.get("deviceCursor").asLong() == 30);

    // Reconnect: the fetch without after starts from the server cursor, not from what was fetched.
    ApiClient.Response resumed = laptop.get(messages(conv));
    assertThat(seqs(resumed.body())).hasSize(20).startsWith(31L).endsWith(50L);
  }

  @Test
  void aLostAckIsRepairedFromTheActivationAndStaleOrTooFarAcksAreHarmless() {
    String conv = "d:311:312";
    send(client(311, "phone"), conv, 50);
    ApiClient laptop = client(312, "laptop");
    accepted(laptop.post("/v1/acks", acks(conv, 30)));
    awaitActivation(laptop, conv, a -> a.get("deviceCursor").asLong() == 30);
    // The ack of 40 was lost: the activation tells the client, which re-sends its newer cursor.
    JsonNode activation = laptop.get("/v1/conversations/" + conv).body();
    assertThat(activation.get("latestSeq").asLong()).isEqualTo(50);
    assertThat(activation.get("kind").asText()).isEqualTo("direct");
    accepted(laptop.post("/v1/acks", acks(conv, 40)));
    awaitActivation(laptop, conv, a -> a.get("deviceCursor").asLong() == 40);

    accepted(laptop.post("/v1/acks", acks(conv, 12)));
    accepted(laptop.post("/v1/acks", acks(conv, 40)));
    accepted(laptop.post("/v1/acks", acks(conv, 9_999)));
    // Clamped to the latest seq: a later fetch realigns instead of skipping messages to come.
    awaitActivation(laptop, conv, a -> a.get("deviceCursor").asLong() == 50);
    assertThat(laptop.get(messages(conv)).body().get("messages")).isEmpty();
  }

  @Test
  void devicesKeepTheirOwnCursorsAndBadBatchesChangeNothing() {
    String conv = "d:321:322";
    String other = "d:321:399";
    ApiClient alice = client(321, "phone");
    send(alice, conv, 10);
    ApiClient phone = client(322, "phone");
    ApiClient laptop = client(322, "laptop");

    accepted(phone.post("/v1/acks", "{\"acks\":[{\"convId\":\"" + conv + "\",\"seq\":4}]}"));
    accepted(laptop.post("/v1/acks", acks(conv, 9)));
    awaitActivation(laptop, conv, a -> a.get("deviceCursor").asLong() == 9);
    awaitActivation(phone, conv, a -> a.get("deviceCursor").asLong() == 4);

    StringBuilder tooMany = new StringBuilder("{\"acks\":[");
    for (int i = 0; i < 101; i++) {
      tooMany.append(i == 0 ? "" : ",").append("{\"convId\":\"").append(conv).append("\",\"seq\":10}");
    }
    assertThat(phone.post("/v1/acks", tooMany + "]}").status()).isEqualTo(413);
    assertThat(phone.post("/v1/acks", "{\"acks\":[{\"convId\":\"" + conv + "\",\"seq\":10},"
        + "{\"convId\":\"" + other + "\",\"seq\":1}]}").status()).isEqualTo(403);
    assertThat(phone.post("/v1/acks", "{\"acks\":[{\"convId\":\"" + conv + "\",\"seq\":-1}]}").status()).isEqualTo(400);
    assertThat(phone.post("/v1/acks", "{\"acks\":[]}").status()).isEqualTo(400);
    assertThat(phone.post("/v1/acks", "{\"acks\":[{\"convId\":\"nope\",\"seq\":1}]}").status()).isEqualTo(400);
    assertThat(phone.post("/v1/acks", "[1]").status()).isEqualTo(400);

    // A marker ack that does get through proves the refused ones were never applied.
    accepted(alice.post("/v1/acks", acks(conv, 1)));
    awaitActivation(alice, conv, a -> a.get("deviceCursor").asLong() == 1);
    assertThat(phone.get("/v1/conversations/" + conv).body().get("deviceCursor").asLong()).isEqualTo(4);
  }

  @Test
  void readsArePerUserAndASendReadsTheSendersOwnMessage() {
    String conv = "d:331:332";
    ApiClient alice = client(331, "phone");
    ApiClient bobPhone = client(332, "phone");
    ApiClient bobLaptop = client(332, "laptop");
    send(alice, conv, 6);
    awaitActivation(alice, conv, a -> a.get("readSeq").asLong() == 6 && a.get("unread").asLong() == 0);
    assertThat(bobLaptop.get("/v1/conversations/" + conv).body().get("unread").asLong()).isEqualTo(6);

    accepted(bobPhone.post("/v1/reads", "{\"convId\":\"" + conv + "\",\"seq\":4}"));
    JsonNode laptopView = awaitActivation(bobLaptop, conv, a -> a.get("readSeq").asLong() == 4);
    assertThat(laptopView.get("unread").asLong()).isEqualTo(2);
    assertThat(laptopView.get("deviceCursor").asLong()).isZero();

    accepted(bobLaptop.post("/v1/reads", "{\"convId\":\"" + conv + "\",\"seq\":2}"));
    send(bobLaptop, conv, 1);
    awaitActivation(bobPhone, conv, a -> a.get("readSeq").asLong() == 7 && a.get("unread").asLong() == 0);
    assertThat(bobPhone.post("/v1/reads", "{\"convId\":\"" + conv + "\"}").status()).isEqualTo(400);
    assertThat(client(333, "phone").post("/v1/reads", "{\"convId\":\"" + conv + "\",\"seq\":1}").status())
        .isEqualTo(403);
  }

  @Test
  void aDraftReachesTheUsersOtherDevices() {
    String conv = "d:341:342";
    ApiClient phone = client(341, "phone");
    ApiClient laptop = client(341, "laptop");
    assertThat(phone.put("/v1/conversations/" + conv + "/draft", "{\"text\":\"see you at\"}").status()).isEqualTo(202);
    JsonNode seen = awaitActivation(laptop, conv, a -> "see you at".equals(a.get("draft").asText(null)));
    assertThat(seen.get("latestSeq").asLong()).isZero();
    assertThat(client(342, "phone").get("/v1/conversations/" + conv).body().get("draft").isNull()).isTrue();
    assertThat(phone.put("/v1/conversations/" + conv + "/draft", "{\"text\":7}").status()).isEqualTo(400);
    assertThat(phone.put("/v1/conversations/g:404/draft", "{\"text\":\"x\"}").status()).isEqualTo(404);
  }

  private static String acks(String conv, long seq) {
    return "{\"acks\":[{\"convId\":\"" + conv + "\",\"seq\":" + seq + "}]}";
  }

  private static String messages(String conv) {
    return "/v1/conversations/" + conv + "/messages";
  }
}
