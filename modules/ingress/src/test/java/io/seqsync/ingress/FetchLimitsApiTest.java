package io.seqsync.ingress;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqsync.ingress.push.StreamEndpoint;
import io.seqsync.testkit.StreamClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** R23 over HTTP: the per-device rate limit and the lanes that keep paging from starving first screens. */
class FetchLimitsApiTest {
  private static final Duration STREAM_WAIT = Duration.ofSeconds(20);
  private static final String CONV = "d:1:2";
  private static final String MESSAGES = "/v1/conversations/" + CONV + "/messages";

  // Each test starts its app with the limits it is about.
  @RegisterExtension
  static final FetchStackExtension stack = FetchStackExtension.appOnRequest();

  private TestApp test;

  private void app(Map<String, String> fetchSettings) {
    test = stack.app(fetchSettings);
    test.rows.conversation(CONV, 1, 2).messages(CONV, 1, 120, 2);
  }

  @Test
  void aDeviceOverItsRateGets429WithRetryAfterWhileOtherDevicesGoOn() throws InterruptedException {
    app(Map.of("fetch.rate", "1", "fetch.burst", "3"));
    String phone = test.token(1, "phone");

    // The burst passes; at one token a second, a refusal follows long before the bucket could refill.
    List<Integer> statuses = new ArrayList<>();
    Http.Response refused = null;
    while (refused == null && statuses.size() < 50) {
      Http.Response response = test.http.get(MESSAGES + "?last=5", phone);
      statuses.add(response.status());
      refused = response.status() == 429 ? response : null;
    }
    assertThat(refused).isNotNull();
    assertThat(statuses.subList(0, 3)).containsOnly(200);
    assertThat(refused.errorCode()).isEqualTo("rate_limited");
    assertThat(refused.json().path("error").path("message").asText()).isNotBlank();
    long retryAfter = Long.parseLong(refused.headers().firstValue("Retry-After").orElseThrow());
    assertThat(retryAfter).isEqualTo(1);

    // The user's other device and other users have buckets of their own.
    assertThat(test.http.get(MESSAGES + "?last=5", test.token(1, "laptop")).status()).isEqualTo(200);
    assertThat(test.http.get(MESSAGES + "?last=5", test.token(2, "phone")).status()).isEqualTo(200);

    // A client that waits as told gets through again.
    TimeUnit.SECONDS.sleep(retryAfter);
    assertThat(test.http.get(MESSAGES + "?last=5", phone).status()).isEqualTo(200);
    assertThat(test.registry.get("seqsync.ingress.fetch.rate.limited").counter().count()).isPositive();
  }

  @Test
  void theHandshakeActivationAndEveryFetchModeCountAgainstTheBucket() {
    app(Map.of("fetch.rate", "1", "fetch.burst", "3"));
    Map<String, Function<String, Http.Response>> routes = Map.of(
        "handshake", token -> test.http.post("/v1/sync", token, "{}"),
        "activation", token -> test.http.get("/v1/conversations/" + CONV, token),
        "cursor", token -> test.http.get(MESSAGES, token),
        "after", token -> test.http.get(MESSAGES + "?after=10", token),
        "before", token -> test.http.get(MESSAGES + "?before=10", token));
    routes.forEach((route, call) -> {
      String device = test.token(1, "device-" + route);
      int answered = 0;
      Http.Response response;
      do {
        response = call.apply(device);
        answered++;
      } while (response.status() == 200 && answered < 50);
      assertThat(response.status()).as(route).isEqualTo(429);
      assertThat(response.errorCode()).as(route).isEqualTo("rate_limited");
      assertThat(answered).as(route).isGreaterThan(3);
    });
  }

  @Test
  void aPagingFloodIsRefusedInPartWhileFirstScreensAllSucceed() throws Exception {
    // One paging fetch at a time and none waiting; first screens may wait their turn.
    app(Map.of("fetch.paging.concurrency", "1", "fetch.paging.queue", "0",
        "fetch.first-screen.concurrency", "2", "fetch.first-screen.queue", "32", "fetch.first-screen.wait", "60s",
        "fetch.rate", "1000000", "fetch.burst", "1000000"));
    String phone = test.token(1, "phone");
    List<Function<String, Http.Response>> firstScreens = List.of(
        token -> test.http.get(MESSAGES + "?last=20", token),
        token -> test.http.get(MESSAGES, token),
        token -> test.http.get("/v1/conversations/" + CONV, token),
        token -> test.http.post("/v1/sync", token, "{}"));
    ExecutorService threads = Executors.newFixedThreadPool(20);
    AtomicBoolean flooding = new AtomicBoolean(true);
    ConcurrentLinkedQueue<Http.Response> paged = new ConcurrentLinkedQueue<>();
    try {
      List<Future<?>> flood = new ArrayList<>();
      for (int client = 0; client < 16; client++) {
        flood.add(threads.submit(() -> {
          while (flooding.get()) {
            long seq = ThreadLocalRandom.current().nextLong(2, 120);
            paged.add(test.http.get(MESSAGES + (seq % 2 == 0 ? "?before=" : "?after=") + seq, phone));
          }
        }));
      }
      // First screens only once the flood is refused in part: they run against a full paging lane.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (paged.stream().noneMatch(response -> response.status() == 503) && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      List<Future<List<Http.Response>>> screens = new ArrayList<>();
      for (int client = 0; client < 4; client++) {
        String device = test.token(1, "screen-" + client);
        screens.add(threads.submit(() -> {
          List<Http.Response> answers = new ArrayList<>();
          for (int i = 0; i < 40; i++) {
            answers.add(firstScreens.get(i % firstScreens.size()).apply(device));
          }
          return answers;
        }));
      }
      List<Http.Response> screened = new ArrayList<>();
      for (Future<List<Http.Response>> screen : screens) {
        screened.addAll(screen.get(120, TimeUnit.SECONDS));
      }
      flooding.set(false);
      for (Future<?> client : flood) {
        client.get(60, TimeUnit.SECONDS);
      }

      assertThat(screened).hasSize(160).allSatisfy(response -> assertThat(response.status()).isEqualTo(200));
      List<Http.Response> refused = paged.stream().filter(response -> response.status() != 200).toList();
      assertThat(refused).isNotEmpty().allSatisfy(response -> {
        assertThat(response.status()).isEqualTo(503);
        assertThat(response.errorCode()).isEqualTo("overloaded");
        assertThat(response.headers().firstValue("Retry-After")).hasValue("1");
      });
      assertThat(paged.size() - refused.size()).as("paging fetches answered").isPositive();
      assertThat(rejected("paging")).isEqualTo(refused.size());
      assertThat(rejected("first-screen")).isZero();
      assertThat(test.http.get("/metrics", null).body())
          .contains("seqsync_ingress_lane_rejected_total{lane=\"paging\"} " + refused.size() + ".0")
          .contains("seqsync_ingress_lane_in_flight{lane=\"first-screen\"}")
          .contains("seqsync_ingress_fetch_buckets");
    } finally {
      flooding.set(false);
      threads.shutdownNow();
    }
  }

  @Test
  void aPushSocketWhoseHandshakeFindsTheFirstScreenLaneFullIsClosedWithTryAgainLater() throws Exception {
    app(Map.of("fetch.first-screen.concurrency", "1", "fetch.first-screen.queue", "0"));
    String phone = test.token(1, "phone");
    ExecutorService threads = Executors.newSingleThreadExecutor();
    try (org.jdbi.v3.core.Handle lock = test.database.jdbi().open()) {
      // A handshake that holds the lane: its query waits for the table this transaction locks.
      lock.begin();
      lock.execute("lock table conversations in access exclusive mode");
      Future<Http.Response> held = threads.submit(() -> test.http.post("/v1/sync", phone, "{}"));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (test.registry.get("seqsync.ingress.lane.in.flight").tag("lane", "first-screen").gauge().value() < 1) {
        assertThat(System.nanoTime()).as("the held handshake entered the lane").isLessThan(deadline);
        Thread.sleep(10);
      }
      try (StreamClient refused = StreamClient.withHeader(test.app.port(), test.token(1, "laptop"))) {
        assertThat(refused.nextOrClose(STREAM_WAIT).get("type").asText()).as("no sync frame: when to come back").isEqualTo("reconnect");
        assertThat(refused.nextOrClose(STREAM_WAIT)).isNull();
        assertThat(refused.closeCode(STREAM_WAIT)).isEqualTo(StreamEndpoint.TRY_AGAIN_LATER);
      }
      lock.rollback();
      assertThat(held.get(30, TimeUnit.SECONDS).status()).isEqualTo(200);
    } finally {
      threads.shutdownNow();
    }
    try (StreamClient admitted = StreamClient.withHeader(test.app.port(), test.token(1, "laptop"))) {
      assertThat(admitted.nextOrClose(STREAM_WAIT).get("type").asText()).isEqualTo("sync");
    }
    assertThat(rejected("first-screen")).isEqualTo(1);
  }

  private double rejected(String lane) {
    return test.registry.get("seqsync.ingress.lane.rejected").tag("lane", lane).counter().count();
  }
}
