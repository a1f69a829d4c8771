package io.seqsync.app;

import static io.seqsync.app.EndToEnd.accepted;
import static io.seqsync.app.EndToEnd.awaitUnread;
import static io.seqsync.app.EndToEnd.entry;
import static io.seqsync.app.EndToEnd.ok;
import static io.seqsync.app.EndToEnd.send;
import static io.seqsync.testkit.StreamClient.ofType;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.seqsync.config.RedisEndpoint;
import io.seqsync.localstack.LocalRedisCluster;
import io.seqsync.redis.RedisClients;
import io.seqsync.testkit.ApiClient;
import io.seqsync.testkit.StreamClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.UnifiedJedis;

/**
 * The app configured with a Redis Cluster of three masters ({@code redis.uri} listing its nodes):
 * sends, the list and unread counts served from the cluster's index (not PostgreSQL's fallback),
 * a group, a flush of every master rebuilt from PostgreSQL, and push across the cluster, with
 * Redis's health up.
 */
class RedisClusterEndToEndTest {
  private static final Duration FRAME = Duration.ofSeconds(10);

  @TempDir static Path dir;
  private static LocalRedisCluster cluster;
  private static SeqsyncApp app;
  private static UnifiedJedis redis;

  @BeforeAll
  static void start() {
    cluster = LocalRedisCluster.start(dir.resolve("redis-cluster"), 3);
    app = SeqsyncApp.start(EndToEnd.config(dir, Map.of("redis.uri", cluster.uri(), "auth.secret",
        "a test secret of at least thirty-two bytes")));
    redis = RedisClients.connect(RedisEndpoint.parse(cluster.uri()));
  }

  @AfterAll
  static void stop() {
    // Closed in reverse: the client, the app, then the cluster it used.
    try (LocalRedisCluster closingCluster = cluster; SeqsyncApp closingApp = app; UnifiedJedis closingRedis = redis) {
      app = null;
    }
  }

  @Test
  void sendsListUnreadAndPushWorkOnTheClusterAndTheIndexIsRebuiltAfterAFlush() {
    // Up once the indexer has reconciled the index after the start (degraded, "catching up", until then).
    EndToEnd.await(() -> ok(new ApiClient(app.httpPort(), null).get("/health/ready")),
        ready -> ready.get("dependencies").get("redis").get("state").asText().equals("up"));
    String direct = "d:601:602";
    ApiClient alice = client(601, "phone");
    ApiClient bob = client(602, "laptop");
    try (StreamClient stream = StreamClient.withHeader(app.httpPort(), EndToEnd.token(app, 602, "laptop"))) {
      stream.next(ofType("sync"), FRAME);
      send(alice, direct, 5);
      List<Long> pushed = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        pushed.add(stream.next(ofType("message"), FRAME).get("message").get("seq").asLong());
      }
      assertThat(pushed).as("pushed through the cluster, in order").isEqualTo(LongStream.rangeClosed(1, 5).boxed().toList());
    }
    awaitUnread(bob, direct, 5);
    accepted(bob.post("/v1/reads", "{\"convId\":\"" + direct + "\",\"seq\":3}"));
    awaitUnread(bob, direct, 2);
    assertThat(redis.hget("ss:conv:{" + direct + "}", "latestSeq")).as("indexed in the cluster").isEqualTo("5");
    assertThat(redis.hget("ss:user:{602}", "read:" + direct)).isEqualTo("3");

    ApiClient.Response created = alice.post("/v1/groups", "{\"name\":\"Cluster\",\"members\":[\"602\",\"603\"]}");
    assertThat(created.status()).as("%s", created.body()).isEqualTo(201);
    String groupId = created.body().get("convId").asText();
    send(alice, groupId, 4);
    awaitUnread(client(603, "phone"), groupId, 4);
    assertThat(entry(bob, groupId).get("name").asText()).isEqualTo("Cluster");

    redis.flushAll(); // every master
    assertThat(entry(bob, direct).get("unread").asLong()).as("rebuilt from PostgreSQL, never zero").isEqualTo(2);
    assertThat(entry(bob, groupId).get("unread").asLong()).isEqualTo(4);
    send(alice, direct, 1);
    awaitUnread(bob, direct, 3);
    assertThat(ok(new ApiClient(app.httpPort(), null).get("/health/ready")).get("dependencies").get("redis")
        .get("state").asText()).isEqualTo("up");
  }

  private static ApiClient client(long userId, String deviceId) {
    return EndToEnd.client(app, userId, deviceId);
  }
}
