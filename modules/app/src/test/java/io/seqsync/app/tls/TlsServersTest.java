package io.seqsync.app.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seqsync.config.ConfigLoader;
import io.seqsync.config.KafkaConnection;
import io.seqsync.config.KafkaSettings;
import io.seqsync.config.RedisEndpoint;
import io.seqsync.config.RedisSettings;
import io.seqsync.consumers.TopicAdmin;
import io.seqsync.events.Topics;
import io.seqsync.redis.RedisClients;
import io.seqsync.redis.RedisHealth;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.UnifiedJedis;

/**
 * Each server's client against a real server that speaks TLS only: the settings seqsync reads
 * (kafka.*, redis.*, postgres.jdbc-url) reach it, and a client that does not trust the server's CA,
 * does not use TLS, or signs in wrongly is refused.
 */
class TlsServersTest {
  @TempDir static Path dir;
  private static TestCertificates certificates;
  private static TlsKafka kafka;
  private static TlsRedis redis;
  private static TlsPostgres postgres;

  @BeforeAll
  static void start() throws Exception {
    certificates = TestCertificates.create(Files.createDirectories(dir.resolve("certs")));
    kafka = TlsKafka.start(dir.resolve("kafka"), certificates);
    redis = TlsRedis.start(Files.createDirectories(dir.resolve("redis")), certificates);
    postgres = TlsPostgres.start(dir.resolve("postgres"), certificates);
  }

  @AfterAll
  static void stop() {
    try (TlsKafka k = kafka; TlsRedis r = redis; TlsPostgres p = postgres) {
      kafka = null;
    }
  }

  @Test
  void kafkaOverSslCreatesTopicsOnlyWhenTheBrokersCaIsTrusted() {
    Topics topics = Topics.from(ConfigLoader.of(Map.of("kafka.partitions", "1")).kafka());
    TopicAdmin.ensure(kafka.sslClient(certificates.truststore()), topics, (short) 1);
    assertThat(TopicAdmin.ensure(kafka.sslClient(certificates.truststore()), topics, (short) 1))
        .contains(topics.commands().name()); // created by the first call
    assertThat(reaches(kafka.sslClient(certificates.otherTruststore()))).isInstanceOf(SslAuthenticationException.class);
    assertThat(reaches(KafkaConnection.plain(kafka.sslAddress()))).isNotNull();
  }

  @Test
  void kafkaWithMutualTlsPresentsTheConfiguredKeystore() {
    // The test's server certificate doubles as the client's: the broker checks it against the same CA.
    assertThat(reaches(configured(kafka.mutualSettings(certificates.truststore(),
        Optional.of(certificates.serverKeystore()))))).isNull();
    assertThat(reaches(configured(kafka.mutualSettings(certificates.truststore(), Optional.empty()))))
        .isInstanceOf(SslAuthenticationException.class);
  }

  @Test
  void kafkaOverSaslSslSignsInWithScramAndRefusesAWrongPassword() {
    assertThat(reaches(sasl(TlsKafka.USER, TlsKafka.PASSWORD))).isNull();
    assertThat(reaches(sasl(TlsKafka.USER, "wrong"))).isInstanceOf(SaslAuthenticationException.class);
    assertThat(reaches(sasl("nobody", TlsKafka.PASSWORD))).isInstanceOf(SaslAuthenticationException.class);
  }

  @Test
  void redisOverTlsTakesTheAclUserFromTheUriAndTheConfiguredTruststore() {
    try (UnifiedJedis client = RedisClients.connect(endpoint(redis.settings(certificates.truststore(), TlsRedis.USER,
        TlsRedis.PASSWORD)))) {
      client.set("ss:tls-test", "ok");
      assertThat(client.get("ss:tls-test")).isEqualTo("ok");
    }
    assertThatThrownBy(() -> ping(redis.settings(certificates.truststore(), TlsRedis.USER, "wrong")))
        .hasMessageContaining("WRONGPASS");
    assertThatThrownBy(() -> ping(redis.settings(certificates.otherTruststore(), TlsRedis.USER, TlsRedis.PASSWORD)))
        .hasStackTraceContaining("PKIX");
    String plain = redis.uri("localhost", TlsRedis.USER, TlsRedis.PASSWORD).replace("rediss://", "redis://");
    assertThatThrownBy(() -> ping(Map.of("redis.uri", plain))).isInstanceOf(RuntimeException.class);
    // The certificate names localhost and 127.0.0.1: another name for the same server is refused.
    String otherName = redis.uri("127.0.0.2", TlsRedis.USER, TlsRedis.PASSWORD);
    assertThatThrownBy(() -> ping(Map.of("redis.uri", otherName, "redis.truststore-location",
        certificates.truststore().toString(), "redis.truststore-password", TestCertificates.PASSWORD)))
        .isInstanceOf(RuntimeException.class);
  }

  @Test
  void aRedisClusterOverTlsIsReachedThroughEveryNodeWithTheSameLogin() {
    try (TlsRedis cluster = TlsRedis.startCluster(dir.resolve("redis-cluster"), certificates, 3);
        UnifiedJedis client = RedisClients.connect(endpoint(cluster.settings(certificates.truststore(), TlsRedis.USER,
            TlsRedis.PASSWORD)));
        RedisHealth health = new RedisHealth(endpoint(cluster.settings(certificates.truststore(), TlsRedis.USER,
            TlsRedis.PASSWORD)))) {
      for (int i = 0; i < 30; i++) { // keys in every master's slots
        client.set("ss:cluster-test-" + i, String.valueOf(i));
      }
      for (int i = 0; i < 30; i++) {
        assertThat(client.get("ss:cluster-test-" + i)).isEqualTo(String.valueOf(i));
      }
      assertThat(health.available()).isTrue();
    }
  }

  @Test
  void postgresTakesSslmodeAndSslrootcertFromTheJdbcUrl() throws Exception {
    String verified = postgres.jdbcUrl("localhost", "sslmode=verify-full&sslrootcert=" + certificates.caPem());
    try (Connection connection = DriverManager.getConnection(verified, TlsPostgres.USER, TlsPostgres.PASSWORD);
        ResultSet ssl = connection.createStatement().executeQuery(
            "select ssl from pg_stat_ssl where pid = pg_backend_pid()")) {
      assertThat(ssl.next()).isTrue();
      assertThat(ssl.getBoolean(1)).isTrue();
    }
    assertThatThrownBy(() -> DriverManager.getConnection(postgres.jdbcUrl("localhost", "sslmode=disable"),
        TlsPostgres.USER, TlsPostgres.PASSWORD)).hasMessageContaining("no encryption");
    assertThatThrownBy(() -> DriverManager.getConnection(postgres.jdbcUrl("localhost", "sslmode=verify-full&sslrootcert="
        + certificates.otherCaPem()), TlsPostgres.USER, TlsPostgres.PASSWORD)).hasMessageContaining("SSL");
    assertThatThrownBy(() -> DriverManager.getConnection(verified, TlsPostgres.USER, "wrong"))
        .hasMessageContaining("password authentication failed");
  }

  private KafkaConnection sasl(String user, String password) {
    return configured(kafka.saslSettings(certificates.truststore(), user, password));
  }

  // The Kafka connection seqsync makes of these settings.
  private static KafkaConnection configured(Map<String, String> settings) {
    KafkaSettings config = ConfigLoader.of(settings).kafka();
    return KafkaConnection.configured(config, config.bootstrapServers().orElseThrow());
  }

  // Null when an admin client reaches the broker through {@code connection}, else why not.
  private static Throwable reaches(KafkaConnection connection) {
    Properties properties = connection.properties();
    properties.put("client.id", "tls-test");
    try (Admin admin = Admin.create(properties)) {
      admin.describeCluster(new DescribeClusterOptions().timeoutMs(10_000)).nodes().get();
      return null;
    } catch (java.util.concurrent.ExecutionException e) {
      return e.getCause();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static RedisEndpoint endpoint(Map<String, String> settings) {
    RedisSettings config = ConfigLoader.of(settings).redis();
    return RedisEndpoint.parse(config.uri().orElseThrow()).trusting(config.truststore());
  }

  private static void ping(Map<String, String> settings) {
    try (UnifiedJedis client = RedisClients.connect(endpoint(settings))) {
      client.ping();
    }
  }
}
