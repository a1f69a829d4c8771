package io.seqsync.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.seqsync.localstack.LocalRedis;
import io.seqsync.testkit.ApiClient;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * /health/ready and /health/live on a real stack (embedded Kafka and PostgreSQL, a redis-server the
 * test starts and stops), through its outages: the projection held back, Redis stopped, PostgreSQL
 * stalled, and last the event projector fenced out of its group, for good. The tests share one
 * app and run in order; each leaves it healthy, but the last.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HealthEndToEndTest {
  private static final Duration SETTLED = Duration.ofSeconds(60);
  private static final List<String> DEPENDENCIES = List.of(
      "kafka", "postgres", "redis", "sequencer", "eventProjector", "deliveryProjector", "projectorLag");
  private static final String INSTANCE_ID = "health-test";

  @TempDir static Path dir;
  private static LocalRedis redis;
  private static int redisPort;
  private static SeqsyncApp app;
  private static ApiClient anonymous;

  @BeforeAll
  static void start() {
    redis = LocalRedis.start(dir.resolve("redis"), 0);
    redisPort = URI.create(redis.uri()).getPort();
    app = SeqsyncApp.start(EndToEnd.config(dir.resolve("app"), Map.of(
        "redis.uri", redis.uri(),
        "auth.secret", "health-end-to-end-test-secret-0123456789",
        "http.reply-budget", "1s",
        "projector.instance-id", INSTANCE_ID,
        "health.projector-lag-threshold", "2")));
    anonymous = new ApiClient(app.httpPort(), null);
  }

  @AfterAll
  static void stop() {
    if (app != null) {
      app.close();
    }
    redis.close();
  }

  @Test
  @Order(1)
  void everyDependencyIsNamedAndUp() {
    JsonNode ready = await("/health/ready", 200, body -> body.get("status").asText().equals("ok"));
    JsonNode dependencies = ready.get("dependencies");
    assertThat(dependencies.fieldNames()).toIterable().containsExactlyElementsOf(DEPENDENCIES);
    DEPENDENCIES.forEach(name -> assertThat(dependencies.get(name).get("state").asText()).as(name).isEqualTo("up"));
    assertThat(dependencies.get("sequencer").get("streams").asText()).isEqualTo("RUNNING");
    assertThat(dependencies.get("sequencer").get("group").get("state").asText()).isEqualTo("Stable");
    assertThat(dependencies.get("sequencer").get("group").get("members")).hasSize(1);
    assertThat(dependencies.get("eventProjector").get("assignedPartitions").toString()).isEqualTo("[0,1,2]");
    assertThat(dependencies.get("deliveryProjector").get("group").get("members")).hasSize(1);
    assertThat(dependencies.get("projectorLag").get("total").asLong()).isZero();
    assertThat(dependencies.get("projectorLag").get("partitions")).hasSize(3);

    await("/health/live", 200, body -> body.get("status").asText().equals("ok"));
    ApiClient.Response legacy = anonymous.get("/health");
    assertThat(legacy.status()).isEqualTo(200);
    assertThat(legacy.body().get("status").asText()).isEqualTo("ok");
    assertThat(legacy.body().get("checks").get("postgres").asText()).isEqualTo("up");
  }

  @Test
  @Order(2)
  void theProjectionHeldBackShowsItsExactLagAndDegradesReadiness() throws Exception {
    ApiClient alice = EndToEnd.client(app, 1, "phone");
    try (Connection holder = DriverManager.getConnection(app.stack().postgresJdbcUrl(), app.stack().postgresUser(),
        app.stack().postgresPassword())) {
      holder.setAutoCommit(false);
      try (Statement statement = holder.createStatement()) {
        // Reads go on; the projector's offset updates wait, so nothing more is projected.
        statement.execute("lock table projector_offsets in exclusive mode");
      }
      for (int i = 0; i < 3; i++) {
        ApiClient.Response sent = alice.post("/v1/conversations/d:1:2/messages",
            "{\"clientMsgId\":\"" + UUID.randomUUID() + "\",\"type\":\"text\",\"content\":\"held back\"}");
        assertThat(sent.status()).as("%s", sent.body()).isEqualTo(202);
      }
      JsonNode ready = await("/health/ready", 200, body -> body.get("dependencies").get("projectorLag").get("total").asLong() == 3);
      assertThat(ready.get("status").asText()).isEqualTo("degraded");
      JsonNode lag = ready.get("dependencies").get("projectorLag");
      assertThat(lag.get("state").asText()).isEqualTo("degraded");
      assertThat(lag.get("reason").asText()).isEqualTo("the projection is 3 events behind the events topic");
      assertThat(lag.get("worst").get("lag").asLong()).isEqualTo(3);
      holder.rollback();
    }
    JsonNode caughtUp = await("/health/ready", 200,
        body -> body.get("dependencies").get("projectorLag").get("total").asLong() == 0);
    assertThat(caughtUp.get("status").asText()).isEqualTo("ok");
  }

  @Test
  @Order(3)
  void redisStoppedDegradesReadinessAndItsReturnMendsIt() {
    redis.close();
    JsonNode degraded = await("/health/ready", 200,
        body -> body.get("dependencies").get("redis").get("state").asText().equals("down"));
    assertThat(degraded.get("status").asText()).isEqualTo("degraded");
    assertThat(degraded.get("dependencies").get("redis").get("impact").asText()).contains("PostgreSQL").contains("push");
    ApiClient.Response live = anonymous.get("/health/live");
    assertThat(live.status()).isEqualTo(200);

    redis = LocalRedis.start(dir.resolve("redis"), redisPort);
    await("/health/ready", 200, body -> body.get("status").asText().equals("ok"));
  }

  @Test
  @Order(4)
  void aStalledPostgresMakesItUnreadyWithinTheProbesBound() throws Exception {
    long postmaster = Long.parseLong(Files.readAllLines(dir.resolve("app/postgres/data/postmaster.pid")).get(0).strip());
    List<Long> processes = new ArrayList<>(List.of(postmaster));
    ProcessHandle.of(postmaster).orElseThrow().descendants().forEach(process -> processes.add(process.pid()));
    signal("STOP", processes);
    try {
      Thread.sleep(1_500); // past the second for which the last results are reused
      long began = System.nanoTime();
      ApiClient.Response ready = anonymous.get("/health/ready");
      assertThat(Duration.ofNanos(System.nanoTime() - began)).as("answered, not hung").isLessThan(Duration.ofSeconds(20));
      assertThat(ready.status()).as("%s", ready.body()).isEqualTo(503);
      assertThat(ready.body().get("status").asText()).isEqualTo("unavailable");
      assertThat(ready.body().get("dependencies").get("postgres").get("state").asText()).isEqualTo("down");
      assertThat(ready.body().get("error").get("message").asText()).contains("postgres down");
      assertThat(anonymous.get("/health/live").status()).as("a stall is no reason to restart").isEqualTo(200);
    } finally {
      signal("CONT", processes);
    }
    await("/health/ready", 200, body -> body.get("status").asText().equals("ok"));
  }

  @Test
  @Order(5)
  void aProjectorFencedOutOfItsGroupFailsLivenessForGood() {
    // A second member with the event projector's instance id takes its place: the projector is fenced.
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, app.stack().kafkaBootstrapServers());
    props.put(ConsumerConfig.GROUP_ID_CONFIG, "seqsync-projector");
    props.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, INSTANCE_ID);
    props.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "classic");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    try (KafkaConsumer<byte[], byte[]> usurper =
        new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      usurper.subscribe(List.of("seqsync.events"));
      long deadline = System.nanoTime() + SETTLED.toNanos();
      ApiClient.Response live;
      do {
        usurper.poll(Duration.ofMillis(200));
        live = anonymous.get("/health/live");
      } while (live.status() != 503 && System.nanoTime() < deadline);
      assertThat(live.status()).as("%s", live.body()).isEqualTo(503);
      assertThat(live.body().get("status").asText()).isEqualTo("failed");
      JsonNode projector = live.body().get("dependencies").get("eventProjector");
      assertThat(projector.get("state").asText()).isEqualTo("failed");
      assertThat(projector.get("error").asText()).contains("FencedInstanceIdException");
      assertThat(live.body().get("error").get("message").asText()).contains("eventProjector failed");
      assertThat(anonymous.get("/health/ready").status()).isEqualTo(503);
    }
  }

  // The answer of path once it has the status and satisfies the condition; fails after SETTLED.
  private static JsonNode await(String path, int status, Predicate<JsonNode> condition) {
    long deadline = System.nanoTime() + SETTLED.toNanos();
    ApiClient.Response answer;
    do {
      answer = anonymous.get(path);
      if (answer.status() == status && condition.test(answer.body())) {
        return answer.body();
      }
      EndToEnd.sleep(200);
    } while (System.nanoTime() < deadline);
    throw new AssertionError(path + " did not answer " + status + " as expected within " + SETTLED + ": "
        + answer.status() + " " + answer.body());
  }

  private static void signal(String signal, List<Long> pids) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("kill", "-" + signal));
    pids.forEach(pid -> command.add(Long.toString(pid)));
    assertThat(new ProcessBuilder(command).inheritIO().start().waitFor()).as("%s", command).isZero();
  }
}
