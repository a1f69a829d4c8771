package io.seqsync.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seqsync.config.ConfigLoader;
import io.seqsync.config.SeqsyncConfig;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.RedisClient;

class LocalStackTest {

  @Test
  void startsAllThreeWhenNothingIsConfiguredAndTheObjectStoreWhenAsked(@TempDir Path dir) throws Exception {
    SeqsyncConfig config = ConfigLoader.of(Map.of(
        "data-dir", dir.toString(),
        "kafka.embedded-port", "0",
        "postgres.embedded-port", "0",
        "redis.embedded-port", "0"));

    URI objectStore;
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
      // The S3 server's address is known from the start, the server runs only once asked for.
      objectStore = URI.create(stack.endpoints().objectStore().orElseThrow());
      assertThat(listens(objectStore)).as("S3 before anyone asked").isFalse();
      stack.startObjectStore();
      assertThat(listens(objectStore)).as("S3 once asked").isTrue();
      stack.startObjectStore(); // started once

      // A second stack on the same directory fails before it touches the running servers' data.
      assertThatThrownBy(() -> LocalStack.start(config)).hasMessageContaining("is in use by another seqsync");
      try (Admin admin = Admin.create(Map.of("bootstrap.servers", stack.kafkaBootstrapServers()))) {
        assertThat(admin.describeCluster().nodes().get(30, TimeUnit.SECONDS)).hasSize(1);
      }
    }

    assertThat(dir.resolve("kafka/meta.properties")).exists();
    assertThat(dir.resolve("postgres/data/PG_VERSION")).exists();
    assertThat(dir.resolve("redis")).isNotEmptyDirectory();
    assertThat(dir.resolve("s3")).isDirectory();
    assertThat(listens(objectStore)).as("S3 stopped with the stack").isFalse();
  }

  private static boolean listens(URI server) {
    try (Socket socket = new Socket(server.getHost(), server.getPort())) {
      return true;
    } catch (IOException refused) {
      return false;
    }
  }

  @Test
  void serversLeftRunningByAKilledProcessAreStoppedAtTheNextStart(@TempDir Path dir) throws Exception {
    Map<String, String> settings = Map.of(
        "data-dir", dir.resolve("data").toString(),
        "kafka.bootstrap-servers", "127.0.0.1:1", // external, never contacted: only PostgreSQL and Redis matter here
        "postgres.embedded-port", String.valueOf(FreePorts.pick()),
        "redis.embedded-port", String.valueOf(FreePorts.pick()));
    SeqsyncConfig config = ConfigLoader.of(settings);
    String jdbcUrl = "jdbc:postgresql://127.0.0.1:" + config.postgres().embeddedPort() + "/postgres";
    URI redisUri = URI.create("redis://127.0.0.1:" + config.redis().embeddedPort());
    List<String> arguments = settings.entrySet().stream().map(setting -> setting.getKey() + "=" + setting.getValue()).toList();
    try {
      try (ChildJvm child = new ChildJvm(LocalStackProcess.class, List.of("-Xmx128m"), arguments, Map.of(),
          dir.resolve("child.log"), "local stack up")) {
        child.start(Duration.ofSeconds(90));
        try (Connection connection = DriverManager.getConnection(jdbcUrl, "postgres", "");
            Statement statement = connection.createStatement()) {
          statement.execute("create table kept (v text); insert into kept values ('before the kill')");
        }
        try (RedisClient redis = RedisClient.create(redisUri)) {
          redis.set("kept", "before the kill");
        }
        child.kill(); // SIGKILL: no shutdown hook stops the two servers
      }
      try (Connection connection = DriverManager.getConnection(jdbcUrl, "postgres", "")) {
        assertThat(connection.isValid(5)).as("PostgreSQL outlived the process that started it").isTrue();
      }
      try (RedisClient redis = RedisClient.create(redisUri)) {
        assertThat(redis.ping()).as("Redis outlived the process that started it").isEqualTo("PONG");
      }

      try (LocalStack stack = LocalStack.start(config);
          Connection connection = DriverManager.getConnection(stack.postgresJdbcUrl(), stack.postgresUser(), stack.postgresPassword());
          Statement statement = connection.createStatement();
          RedisClient redis = RedisClient.create(URI.create(stack.redisUri()))) {
        ResultSet kept = statement.executeQuery("select v from kept");
        assertThat(kept.next()).isTrue();
        assertThat(kept.getString(1)).isEqualTo("before the kill");
        assertThat(redis.get("kept")).isEqualTo("before the kill");
      }
    } finally { // a failure above must not leave the two servers running on the machine
      LocalPostgres.stopLeftover(dir.resolve("data/postgres"));
      LocalRedis.stopLeftover(dir.resolve("data/redis"));
    }
    FreePorts.requireFree(config.postgres().embeddedPort());
    FreePorts.requireFree(config.redis().embeddedPort());
  }
}
