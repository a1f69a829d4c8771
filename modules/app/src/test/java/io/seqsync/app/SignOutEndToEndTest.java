package io.seqsync.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqsync.config.ConfigLoader;
import io.seqsync.testkit.ApiClient;
import io.seqsync.testkit.StreamClient;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Signing out on two instances of one stack: a device signed out through one instance has its
 * token refused by the other within 2 s, and its push socket there closed (4401 token_revoked);
 * the user's other devices go on until the user signs out all of them. A socket also closes when
 * its token expires (4401 token_expired).
 */
class SignOutEndToEndTest {
  private static final String SECRET = "sign-out-test-secret-0123456789abcdef";
  private static final Duration IN_FORCE_EVERYWHERE = Duration.ofSeconds(2);

  @TempDir Path dir;

  @Test
  void aSignedOutDeviceIsRefusedByEveryInstanceAndItsSocketsClosed() throws Exception {
    Map<String, String> firstSettings = new HashMap<>(Map.of("data-dir", dir.resolve("first").toString(),
        "http.port", "0", "kafka.partitions", "3", "auth.secret", SECRET,
        "kafka.embedded-port", "0", "postgres.embedded-port", "0", "redis.embedded-port", "0"));
    try (SeqsyncApp first = SeqsyncApp.start(ConfigLoader.of(firstSettings))) {
      Map<String, String> secondSettings = new HashMap<>(Map.of("data-dir", dir.resolve("second").toString(),
          "http.port", "0", "kafka.partitions", "3", "auth.secret", SECRET,
          "kafka.bootstrap-servers", first.stack().kafkaBootstrapServers(),
          "postgres.jdbc-url", first.stack().postgresJdbcUrl(), "redis.uri", first.stack().redisUri()));
      try (SeqsyncApp second = SeqsyncApp.start(ConfigLoader.of(secondSettings))) {
        String phone = EndToEnd.token(first, 71, "phone");
        String tablet = EndToEnd.token(first, 71, "tablet");
        try (StreamClient phoneOnSecond = StreamClient.withHeader(second.httpPort(), phone);
            StreamClient tabletOnSecond = StreamClient.withQueryToken(second.httpPort(), tablet)) {
          phoneOnSecond.next(StreamClient.ofType("sync"), Duration.ofSeconds(10));
          tabletOnSecond.next(StreamClient.ofType("sync"), Duration.ofSeconds(10));
          assertThat(list(second, phone).status()).isEqualTo(200);

          ApiClient.Response signedOut = new ApiClient(first.httpPort(), phone).post("/v1/sign-out", "");
          assertThat(signedOut.status()).isEqualTo(200);
          assertThat(signedOut.body().get("signedOut").asText()).isEqualTo("device");
          assertThat(list(first, phone).status()).as("at once on the instance that signed it out").isEqualTo(401);
          assertThat(list(first, phone).body().get("error").get("code").asText()).isEqualTo("token_revoked");

          long start = System.nanoTime();
          awaitTrue(() -> list(second, phone).status() == 401, IN_FORCE_EVERYWHERE);
          StreamClient.Close close = phoneOnSecond.closed(IN_FORCE_EVERYWHERE);
          assertThat(close).isEqualTo(new StreamClient.Close(4401, "token_revoked"));
          assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(IN_FORCE_EVERYWHERE.plusMillis(500));
          assertThat(tabletOnSecond.isClosed()).as("the user's other device").isFalse();
          assertThat(list(second, tablet).status()).isEqualTo(200);

          assertThat(new ApiClient(second.httpPort(), tablet).post("/v1/sign-out", "{\"allDevices\":true}")
              .body().get("signedOut").asText()).isEqualTo("all");
          assertThat(tabletOnSecond.closed(IN_FORCE_EVERYWHERE).code()).isEqualTo(4401);
          awaitTrue(() -> list(first, tablet).status() == 401, IN_FORCE_EVERYWHERE);
          assertThat(new ApiClient(first.httpPort(), tablet).post("/v1/sign-out", "{\"allDevices\":\"yes\"}").status())
              .as("a bad body is refused, before the token is").isIn(400, 401);
        }

        // Tokens are issued in whole seconds: one issued a second after the sign-out works.
        Thread.sleep(1_100);
        String signedInAgain = EndToEnd.token(second, 71, "phone");
        assertThat(list(first, signedInAgain).status()).isEqualTo(200);
        assertThat(list(first, EndToEnd.token(second, 72, "phone")).status()).as("another user").isEqualTo(200);

        String shortLived = first.tokens().mint(73, "watch", Instant.now().plusSeconds(2));
        try (StreamClient expiring = StreamClient.withHeader(first.httpPort(), shortLived)) {
          expiring.next(StreamClient.ofType("sync"), Duration.ofSeconds(10));
          assertThat(expiring.closed(Duration.ofSeconds(5))).isEqualTo(new StreamClient.Close(4401, "token_expired"));
        }
      }
    }
  }

  private static ApiClient.Response list(SeqsyncApp app, String token) {
    return new ApiClient(app.httpPort(), token).get("/v1/conversations");
  }

  private static void awaitTrue(BooleanSupplier condition, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within " + timeout);
      }
      Thread.sleep(50);
    }
  }
}
