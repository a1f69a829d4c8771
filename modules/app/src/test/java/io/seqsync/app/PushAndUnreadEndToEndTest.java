package io.seqsync.app;

import static io.seqsync.app.EndToEnd.accepted;
import static io.seqsync.app.EndToEnd.await;
import static io.seqsync.app.EndToEnd.awaitActivation;
import static io.seqsync.app.EndToEnd.awaitUnread;
import static io.seqsync.app.EndToEnd.entry;
import static io.seqsync.app.EndToEnd.ok;
import static io.seqsync.app.EndToEnd.send;
import static io.seqsync.testkit.StreamClient.ofType;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.seqsync.testkit.ApiClient;
import io.seqsync.testkit.StreamClient;
import java.net.URI;
import java.net.http.WebSocketHandshakeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.JedisPooled;

/**
 * The conversation list and unread counts from Redis (R20), and the push stream (R1, R15, R19),
 * over real HTTP and real WebSockets on the real stack. Each test has conversations of its own.
 */
class PushAndUnreadEndToEndTest extends EndToEndTest {
  private static final Duration FRAME = Duration.ofSeconds(5);

  @Test
  void unreadIsExactAcrossSendsOwnMessagesRecallsAndReadsAndSurvivesAFlush() {
    String conv = "d:401:402";
    ApiClient alice = client(401, "phone");
    ApiClient bob = client(402, "laptop");
    send(alice, conv, 5);                                  // seqs 1-5
    awaitUnread(bob, conv, 5);
    send(bob, conv, 1);                                    // seq 6: bob has read up to his own message
    awaitUnread(bob, conv, 0);
    awaitUnread(alice, conv, 1);
    List<JsonNode> later = send(alice, conv, 3);           // seqs 7-9
    awaitUnread(alice, conv, 0);
    awaitUnread(bob, conv, 3);
    assertThat(ok(alice.post("/v1/conversations/" + conv + "/messages/8/recall", "")).get("notice").get("seq").asLong())
        .isEqualTo(10);                                    // the notice counts for nobody
    awaitUnread(bob, conv, 2);
    accepted(bob.post("/v1/reads", "{\"convId\":\"" + conv + "\",\"seq\":7}"));
    JsonNode listed = awaitUnread(bob, conv, 1);
    assertThat(listed.get("readSeq").asLong()).isEqualTo(7);
    assertThat(listed.get("latestSeq").asLong()).isEqualTo(10);
    assertThat(listed.get("lastMessage").get("type").asText()).isEqualTo("recall");
    assertThat(later).hasSize(3);

    try (JedisPooled redis = new JedisPooled(URI.create(app.stack().redisUri()))) {
      redis.flushAll();
    }
    // Rebuilt from PostgreSQL, never zero.
    assertThat(entry(bob, conv).get("unread").asLong()).isEqualTo(1);
    assertThat(entry(alice, conv).get("unread").asLong()).isZero();
    assertThat(entry(bob, conv).get("readSeq").asLong()).isEqualTo(7);
    send(alice, conv, 1);
    awaitUnread(bob, conv, 2);
  }

  @Test
  void theListIsMostRecentFirstAndPagesThroughEveryConversation() {
    ApiClient carol = client(411, "phone");
    for (long other = 412; other <= 414; other++) {
      send(client(other, "phone"), "d:411:" + other, 1);
    }
    JsonNode first = await(() -> ok(carol.get("/v1/conversations?limit=2")),
        page -> page.get("conversations").size() == 2 && !page.get("next").isNull());
    assertThat(first.get("conversations").get(0).get("convId").asText()).isEqualTo("d:411:414");
    assertThat(first.get("conversations").get(0).get("unread").asLong()).isEqualTo(1);
    JsonNode second = ok(carol.get("/v1/conversations?limit=2&cursor=" + first.get("next").asText()));
    List<String> convIds = new ArrayList<>();
    first.get("conversations").forEach(c -> convIds.add(c.get("convId").asText()));
    second.get("conversations").forEach(c -> convIds.add(c.get("convId").asText()));
    assertThat(convIds).containsExactly("d:411:414", "d:411:413", "d:411:412");
    assertThat(second.get("next").isNull()).isTrue();
    assertThat(carol.get("/v1/conversations?limit=0").status()).isEqualTo(400);
    assertThat(carol.get("/v1/conversations?cursor=nonsense").status()).isEqualTo(400);
  }

  @Test
  void aConnectedDeviceGetsEveryNewMessageOnceInOrderAndOnlyOnceFetchable() {
    String conv = "d:421:422";
    ApiClient alice = client(421, "phone");
    ApiClient bob = client(422, "laptop");
    try (StreamClient stream = StreamClient.withQueryToken(app.httpPort(), EndToEnd.token(app, 422, "laptop"))) {
      assertThat(stream.next(FRAME).get("type").asText()).isEqualTo("sync");
      send(alice, conv, 20);
      List<Long> pushed = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        JsonNode frame = stream.next(ofType("message"), FRAME);
        assertThat(frame.get("mode").asText()).isEqualTo("push");
        long seq = frame.get("message").get("seq").asLong();
        pushed.add(seq);
        // Store, then push: what was pushed can be fetched right away.
        JsonNode fetched = ok(bob.get("/v1/conversations/" + conv + "/messages?after=" + (seq - 1) + "&until=" + seq));
        assertThat(EndToEnd.seqs(fetched)).containsExactly(seq);
      }
      assertThat(pushed).isEqualTo(java.util.stream.LongStream.rangeClosed(1, 20).boxed().toList());
      stream.send("{\"type\":\"ping\"}");
      assertThat(stream.next(ofType("pong").or(ofType("message")), FRAME).get("type").asText()).isEqualTo("pong");
    }
    // A reconnect starts with the handshake: everything is new for this device, which acked nothing.
    try (StreamClient again = StreamClient.withHeader(app.httpPort(), EndToEnd.token(app, 422, "laptop"))) {
      JsonNode sync = again.next(FRAME);
      assertThat(sync.get("type").asText()).isEqualTo("sync");
      assertThat(sync.get("conversations").get(0).get("latestSeq").asLong()).isEqualTo(20);
    }
  }

  @Test
  void aSocketThatStopsReadingIsDroppedWithoutHoldingUpAnotherDevice() throws Exception {
    String conv = "d:441:442";
    ApiClient alice = client(441, "phone");
    int count = 400;
    String content = "x".repeat(60_000); // 400 frames of 60 KB: more than the socket buffers and the 256-frame queue
    double droppedBefore = EndToEnd.metric(app, "seqsync_push_dropped_total", "");
    try (StreamClient fast = StreamClient.withHeader(app.httpPort(), EndToEnd.token(app, 442, "laptop"));
         StreamClient slow = StreamClient.withHeader(app.httpPort(), EndToEnd.token(app, 442, "phone"))) {
      slow.pause();
      fast.next(ofType("sync"), FRAME);
      slow.next(ofType("sync"), FRAME);
      ExecutorService senders = Executors.newFixedThreadPool(8);
      try {
        List<Future<Integer>> statuses = new ArrayList<>();
        for (int i = 0; i < count; i++) {
          String body = "{\"clientMsgId\":\"big-" + i + "\",\"type\":\"text\",\"content\":\"" + content + "\"}";
          statuses.add(senders.submit(() -> alice.post("/v1/conversations/" + conv + "/messages", body).status()));
        }
        for (Future<Integer> status : statuses) {
          assertThat(status.get()).isEqualTo(200);
        }
      } finally {
        senders.shutdown();
      }
      List<Long> pushed = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        pushed.add(fast.next(ofType("message"), FRAME).get("message").get("seq").asLong());
      }
      assertThat(pushed).isEqualTo(java.util.stream.LongStream.rangeClosed(1, count).boxed().toList());
      // The stalled device was cut off rather than buffered without bound; it reconnects and pulls.
      await(() -> null, ignored -> EndToEnd.metric(app, "seqsync_push_dropped_total", "") > droppedBefore);
    }
  }

  @Test
  void aReadOnThePhoneReachesTheLaptopAndTheSenderWithinASecond() {
    String conv = "d:431:432";
    ApiClient alice = client(431, "phone");
    send(alice, conv, 3);
    ApiClient bobLaptop = client(432, "laptop");
    awaitUnread(bobLaptop, conv, 3);
    try (StreamClient laptop = StreamClient.withHeader(app.httpPort(), EndToEnd.token(app, 432, "laptop"));
         StreamClient sender = StreamClient.withHeader(app.httpPort(), EndToEnd.token(app, 431, "phone"));
         StreamClient phone = StreamClient.withHeader(app.httpPort(), EndToEnd.token(app, 432, "phone"))) {
      laptop.next(ofType("sync"), FRAME);
      sender.next(ofType("sync"), FRAME);
      phone.next(ofType("sync"), FRAME);
      phone.send("{\"type\":\"read\",\"convId\":\"" + conv + "\",\"seq\":3}");
      JsonNode onLaptop = laptop.next(ofType("read"), Duration.ofSeconds(1));
      JsonNode receipt = sender.next(ofType("read"), Duration.ofSeconds(1));
      assertThat(onLaptop.get("userId").asText()).isEqualTo("432");
      assertThat(onLaptop.get("seq").asLong()).isEqualTo(3);
      assertThat(receipt.get("convId").asText()).isEqualTo(conv);
      assertThat(receipt.get("seq").asLong()).isEqualTo(3);
      assertThat(entry(bobLaptop, conv).get("unread").asLong()).isZero();

      phone.send("{\"type\":\"ack\",\"convId\":\"" + conv + "\",\"seq\":2}");
      JsonNode cursor = laptop.next(ofType("cursor"), FRAME);
      assertThat(cursor.get("deviceId").asText()).isEqualTo("phone");
      awaitActivation(client(432, "phone"), conv, a -> a.get("deviceCursor").asLong() == 2);

      phone.send("not json");
      assertThat(phone.next(ofType("error"), FRAME).get("error").get("code").asText()).isEqualTo("invalid_json");
      phone.send("{\"type\":\"ack\",\"convId\":\"d:1:2\",\"seq\":9}");
      assertThat(phone.next(ofType("error"), FRAME).get("error").get("code").asText()).isEqualTo("not_a_member");
      phone.send("{\"type\":\"dance\"}");
      assertThat(phone.next(ofType("error"), FRAME).get("error").get("code").asText()).isEqualTo("unknown_frame");
    }
    assertThatThrownBy(() -> StreamClient.withQueryToken(app.httpPort(), "forged"))
        .isInstanceOf(CompletionException.class)
        .hasCauseInstanceOf(WebSocketHandshakeException.class)
        .satisfies(e -> assertThat(((WebSocketHandshakeException) e.getCause()).getResponse().statusCode())
            .isEqualTo(401));
  }
}
