package io.seqsync.ingress;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.seqsync.ingress.push.StreamEndpoint;
import io.seqsync.testkit.StreamClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The handshake in pages ({@code limited}, {@code next}) over HTTP and the stream, and a statement
 * past {@code postgres.statement-timeout} answered 503 {@code query_timeout}, counted in /metrics.
 */
class HandshakeLimitsApiTest {
  private static final Duration STREAM_WAIT = Duration.ofSeconds(20);
  @RegisterExtension
  static final FetchStackExtension stack =
      FetchStackExtension.appPerTest(Map.of("sync.page-size", "2", "postgres.statement-timeout", "300ms"));

  private TestApp test;
  private String phone;

  // Five conversations with something new for user 1, g:a the least recently active.
  @BeforeEach
  void rows() {
    test = stack.app();
    phone = test.token(1, "phone");
    for (String conv : List.of("g:a", "g:b", "g:c", "g:d", "g:e")) {
      test.rows.conversation(conv, 1, 2).messages(conv, 1, 1, 2);
    }
    test.rows.conversation("g:other", 2, 3).messages("g:other", 1, 1, 2);
  }

  @Test
  void pagesHoldEveryConversationOnceAndTheLastIsNotLimited() {
    List<String> seen = new ArrayList<>();
    JsonNode page = sync("{}");
    int pages = 1;
    while (page.get("limited").asBoolean()) {
      assertThat(page.get("conversations").size()).isEqualTo(2);
      page.get("conversations").forEach(row -> seen.add(row.get("convId").asText()));
      page = sync("{\"cursors\":{},\"next\":\"" + page.get("next").asText() + "\"}");
      pages++;
    }
    page.get("conversations").forEach(row -> seen.add(row.get("convId").asText()));

    assertThat(seen).containsExactlyInAnyOrder("g:a", "g:b", "g:c", "g:d", "g:e");
    assertThat(pages).isEqualTo(3);
    assertThat(page.has("next")).isFalse();
    // The cursors still apply on every page: reported as caught up, nothing is new.
    assertThat(sync("{\"cursors\":{\"g:a\":1,\"g:b\":1,\"g:c\":1,\"g:d\":1,\"g:e\":1}}").get("conversations")).isEmpty();
  }

  @Test
  void badNextTokensAre400() {
    for (String next : List.of("5", "true", "{}", "\"\"", "\"!!\"", "\"bm9wZQ\"", "\"" + "A".repeat(600) + "\"")) {
      Http.Response response = test.http.post("/v1/sync", phone, "{\"next\":" + next + "}");
      assertThat(response.status()).as(next).isEqualTo(400);
      assertThat(response.errorCode()).as(next).isEqualTo("invalid_next");
    }
  }

  @Test
  void theStreamsSyncFrameIsTheFirstPageAndItsNextWorksOverHttp() {
    try (StreamClient socket = StreamClient.withHeader(test.app.port(), phone)) {
      JsonNode frame = socket.nextOrClose(STREAM_WAIT);
      assertThat(frame.get("type").asText()).isEqualTo("sync");
      assertThat(frame.get("conversations").size()).isEqualTo(2);
      assertThat(frame.get("limited").asBoolean()).isTrue();
      JsonNode rest = sync("{\"next\":\"" + frame.get("next").asText() + "\"}");
      assertThat(rest.get("conversations").size()).isEqualTo(2);
    }
  }

  @Test
  void aQueryPastTheStatementTimeoutIs503QueryTimeoutAndCounted() throws Exception {
    CountDownLatch locked = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    // The test's own pool has no statement timeout: it holds the lock as long as it likes.
    Thread holder = new Thread(() -> {
      try {
        test.database.jdbi().useTransaction(handle -> {
          handle.execute("lock table conversation_members in access exclusive mode");
          locked.countDown();
          release.await(30, TimeUnit.SECONDS);
        });
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    holder.start();
    try {
      assertThat(locked.await(10, TimeUnit.SECONDS)).isTrue();
      Http.Response sync = test.http.post("/v1/sync", phone, "{}");
      assertThat(sync.status()).as(sync.body()).isEqualTo(503);
      assertThat(sync.errorCode()).isEqualTo("query_timeout");
      assertThat(sync.headers().firstValue("Retry-After")).contains("1");
      Http.Response list = test.http.get("/v1/conversations", phone);
      assertThat(list.status()).as(list.body()).isEqualTo(503);
      assertThat(list.errorCode()).isEqualTo("query_timeout");
      try (StreamClient socket = StreamClient.withHeader(test.app.port(), phone)) {
        assertThat(socket.nextOrClose(STREAM_WAIT).toString()).as("when to come back, then the close")
            .isEqualTo("{\"type\":\"reconnect\",\"reason\":\"query_timeout\",\"afterMs\":1000,\"spreadMs\":4000}");
        assertThat(socket.nextOrClose(STREAM_WAIT)).isNull();
        assertThat(socket.closeCode(STREAM_WAIT)).isEqualTo(StreamEndpoint.TRY_AGAIN_LATER);
      }
      assertThat(test.http.get("/metrics", null).body())
          .contains("seqsync_postgres_statement_timeouts_total 3.0");
    } finally {
      release.countDown();
      holder.join();
    }
    assertThat(test.http.post("/v1/sync", phone, "{}").status()).isEqualTo(200);
  }

  private JsonNode sync(String body) {
    Http.Response response = test.http.post("/v1/sync", phone, body);
    assertThat(response.status()).as(response.body()).isEqualTo(200);
    return response.json();
  }
}
