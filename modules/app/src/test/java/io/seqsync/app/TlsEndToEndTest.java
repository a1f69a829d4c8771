package io.seqsync.app;

import static io.seqsync.app.EndToEnd.ok;
import static io.seqsync.app.EndToEnd.send;
import static io.seqsync.testkit.StreamClient.ofType;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.seqsync.app.tls.TestCertificates;
import io.seqsync.app.tls.TlsKafka;
import io.seqsync.app.tls.TlsPostgres;
import io.seqsync.app.tls.TlsRedis;
import io.seqsync.testkit.ApiClient;
import io.seqsync.testkit.StreamClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The app against Kafka, Redis and PostgreSQL that speak TLS only: Kafka over SASL_SSL as a SCRAM
 * user, Redis over rediss:// as an ACL user, PostgreSQL with sslmode=verify-full. A send is
 * answered with its seq, a page is fetched, a connected device is pushed the message.
 */
class TlsEndToEndTest {
  private static final Duration FRAME = Duration.ofSeconds(10);
  @TempDir static Path dir;
  private static TlsKafka kafka;
  private static TlsRedis redis;
  private static TlsPostgres postgres;
  private static SeqsyncApp app;

  @BeforeAll
  static void start() throws Exception {
    TestCertificates certificates = TestCertificates.create(Files.createDirectories(dir.resolve("certs")));
    kafka = TlsKafka.start(dir.resolve("kafka"), certificates);
    redis = TlsRedis.start(Files.createDirectories(dir.resolve("redis")), certificates);
    postgres = TlsPostgres.start(dir.resolve("postgres"), certificates);
    Map<String, String> settings = new HashMap<>(kafka.saslSettings(certificates.truststore(), TlsKafka.USER,
        TlsKafka.PASSWORD));
    settings.putAll(redis.settings(certificates.truststore(), TlsRedis.USER, TlsRedis.PASSWORD));
    settings.put("postgres.jdbc-url", postgres.jdbcUrl("localhost", "sslmode=verify-full&sslrootcert=" + certificates.caPem()));
    settings.put("postgres.user", TlsPostgres.USER);
    settings.put("postgres.password", TlsPostgres.PASSWORD);
    settings.put("auth.secret", "a test secret of at least thirty-two bytes");
    app = SeqsyncApp.start(EndToEnd.config(dir.resolve("app"), settings));
  }

  @AfterAll
  static void stop() {
    try (TlsKafka k = kafka; TlsRedis r = redis; TlsPostgres p = postgres; SeqsyncApp a = app) {
      app = null;
    }
  }

  @Test
  void sendsPagesAndPushesOverTlsOnly() {
    String conv = "d:901:902";
    ApiClient alice = EndToEnd.client(app, 901, "phone");
    ApiClient bob = EndToEnd.client(app, 902, "laptop");
    try (StreamClient stream = StreamClient.withHeader(app.httpPort(), EndToEnd.token(app, 902, "laptop"))) {
      assertThat(stream.next(ofType("sync"), FRAME)).isNotNull();
      List<JsonNode> sent = send(alice, conv, 3);
      assertThat(sent).extracting(message -> message.get("seq").asLong()).containsExactly(1L, 2L, 3L);
      for (long seq = 1; seq <= 3; seq++) {
        JsonNode pushed = stream.next(ofType("message"), FRAME);
        assertThat(pushed.get("message").get("seq").asLong()).isEqualTo(seq);
      }
    }
    JsonNode firstPage = ok(bob.get("/v1/conversations/" + conv + "/messages?after=0&limit=2"));
    assertThat(EndToEnd.seqs(firstPage)).containsExactly(1L, 2L);
    JsonNode rest = ok(bob.get("/v1/conversations/" + conv + "/messages?after=2&limit=2"));
    assertThat(EndToEnd.seqs(rest)).containsExactly(3L);
  }
}
