package io.seqsync.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seqsync.config.ConfigLoader;
import io.seqsync.config.SeqsyncConfig;
import java.net.URI;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.RedisClient;

class LocalStackTest {

  @Test
  void startsAllThreeWhenNothingIsConfigured(@TempDir Path dir) throws Exception {
    SeqsyncConfig config = ConfigLoader.of(Map.of(
        "data-dir", dir.toString(),
        "kafka.embedded-port", "0",
        "postgres.embedded-port", "0",
        "redis.embedded-port", "0"));

    try (LocalStack stack = LocalStack.start(config)) {
      try (Admin admin = Admin.create(Map.of("bootstrap.servers", stack.kafkaBootstrapServers()))) {
        assertThat(admin.describeCluster().nodes().get(30, TimeUnit.SECONDS)).hasSize(1);
      }
      try (Connection connection =
          DriverManager.getConnection(stack.postgresJdbcUrl(), stack.postgresUser(), stack.postgresPassword())) {
        assertThat(connection.isValid(5)).isTrue();
      }
      try (RedisClient redis = RedisClient.create(URI.create(stack.redisUri()))) {
        assertThat(redis.ping()).isEqualTo("PONG");
      }

      // A second stack on the same directory fails before it touches the running servers' data.
      assertThatThrownBy(() -> LocalStack.start(config)).hasMessageContaining("is in use by another seqsync");
      try (Admin admin = Admin.create(Map.of("bootstrap.servers", stack.kafkaBootstrapServers()))) {
        assertThat(admin.describeCluster().nodes().get(30, TimeUnit.SECONDS)).hasSize(1);
      }
    }

    assertThat(dir.resolve("kafka/meta.properties")).exists();
    assertThat(dir.resolve("postgres/data/PG_VERSION")).exists();
    assertThat(dir.resolve("redis")).isNotEmptyDirectory();
  }
}
