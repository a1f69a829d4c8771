package io.seqsync.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.seqsync.localstack.LocalPostgres;
import io.seqsync.localstack.LocalPostgresReplica;
import io.seqsync.localstack.TemporaryDirectory;
import io.seqsync.testkit.ApiClient;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * One app on a real PostgreSQL primary and a real streaming replica of it (PostgreSQL's own
 * replication: a base backup, standby.signal, primary_conninfo): sends, pages, the list and the
 * handshake are right through the replica; with the replica's replay paused, a page or handshake
 * right after a send's 200 still shows that send (the primary answers it); with the replica stopped,
 * the primary answers, and the instance stays ready, reporting the replica down.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReadReplicaEndToEndTest {
  private static final String SECRET = "read-replica-test-secret-0123456789";
  private static final String CONV = "d:1:2";

  private static TemporaryDirectory dir;
  private static LocalPostgres primary;
  private static LocalPostgresReplica replica;
  private static SeqsyncApp app;
  private static ApiClient alice;
  private static ApiClient bob;

  @BeforeAll
  static void start() {
    dir = TemporaryDirectory.create("read-replica-");
    primary = LocalPostgres.start(dir.path().resolve("primary"), 0);
    replica = LocalPostgresReplica.start(primary.jdbcUrl(), dir.path().resolve("replica"), 0, "test_replica");
    Map<String, String> settings = new HashMap<>(Map.of(
        "postgres.jdbc-url", primary.jdbcUrl(),
        "postgres.replica-jdbc-urls", replica.jdbcUrl(),
        "auth.secret", SECRET));
    app = SeqsyncApp.start(EndToEnd.config(dir.path().resolve("app"), settings));
    alice = EndToEnd.client(app, 1, "phone");
    bob = EndToEnd.client(app, 2, "laptop");
    EndToEnd.await(() -> alice.get("/health/ready").body(),
        body -> replicaHealth(body).get("state").asText().equals("up"));
  }

  @AfterAll
  static void stop() {
    try (TemporaryDirectory closingDir = dir; LocalPostgres closingPrimary = primary;
        LocalPostgresReplica closingReplica = replica; SeqsyncApp closingApp = app) {
      app = null;
    }
  }

  @Test
  @Order(1)
  void sendsPagesTheListAndTheHandshakeAreRightThroughTheReplica() {
    List<JsonNode> sent = EndToEnd.send(alice, CONV, 5);
    long last = sent.get(4).get("seq").asLong();
    double fromReplica = routed("replica");
    JsonNode page = EndToEnd.ok(bob.get("/v1/conversations/" + CONV + "/messages?last=20"));
    assertThat(EndToEnd.seqs(page)).containsExactly(1L, 2L, 3L, 4L, 5L);
    assertThat(page.get("latestSeq").asLong()).isEqualTo(last);
    assertThat(EndToEnd.seqs(EndToEnd.ok(bob.get("/v1/conversations/" + CONV + "/messages?after=2")))).containsExactly(3L, 4L, 5L);
    assertThat(EndToEnd.seqs(EndToEnd.ok(bob.get("/v1/conversations/" + CONV + "/messages?before=3&limit=50"))))
        .containsExactly(1L, 2L);
    JsonNode synced = EndToEnd.ok(bob.post("/v1/sync", "{\"cursors\":{\"" + CONV + "\":1}}"));
    assertThat(synced.get("conversations").get(0).get("latestSeq").asLong()).isEqualTo(last);
    assertThat(EndToEnd.seqs(synced.get("conversations").get(0))).containsExactly(2L, 3L, 4L, 5L);
    assertThat(EndToEnd.await(() -> EndToEnd.entry(bob, CONV), entry -> entry != null
        && entry.get("latestSeq").asLong() == last).get("unread").asLong()).isEqualTo(5);
    assertThat(routed("replica")).as("reads the replica answered").isGreaterThanOrEqualTo(fromReplica + 4);
    assertThat(EndToEnd.metric(app, "seqsync_postgres_replica_lag_max_seconds", "")).isLessThan(30);
  }

  @Test
  @Order(2)
  void aPageOrHandshakeIsNeverOlderThanASendsAnswerWhileTheReplicaLags() throws SQLException {
    long before = EndToEnd.ok(bob.get("/v1/conversations/" + CONV + "/messages?last=1")).get("latestSeq").asLong();
    onReplica("select pg_wal_replay_pause()");
    try {
      for (int round = 1; round <= 3; round++) {
        long seq = EndToEnd.send(alice, CONV, 1).get(0).get("seq").asLong();
        assertThat(seq).isEqualTo(before + round);
        // No seq in the request proves the send: the instance knows it announced it committed.
        JsonNode latest = EndToEnd.ok(alice.get("/v1/conversations/" + CONV + "/messages?last=20"));
        assertThat(latest.get("latestSeq").asLong()).as("round %d: last=20 after a 200 for seq %d", round, seq)
            .isEqualTo(seq);
        assertThat(EndToEnd.seqs(latest)).endsWith(seq);
        assertThat(EndToEnd.seqs(EndToEnd.ok(bob.get("/v1/conversations/" + CONV + "/messages?after=" + (seq - 1)))))
            .containsExactly(seq);
        JsonNode synced = EndToEnd.ok(bob.post("/v1/sync", "{\"cursors\":{\"" + CONV + "\":" + (seq - 1) + "}}"));
        assertThat(synced.get("conversations")).hasSize(1);
        assertThat(synced.get("conversations").get(0).get("latestSeq").asLong()).isEqualTo(seq);
      }
      assertThat(routed("primary_stale") + routed("primary_no_replica")).isPositive();
    } finally {
      onReplica("select pg_wal_replay_resume()");
    }
  }

  @Test
  @Order(3)
  void withTheReplicaStoppedThePrimaryAnswersAndTheInstanceStaysReady() {
    replica.close();
    JsonNode ready = EndToEnd.await(() -> alice.get("/health/ready").body(),
        body -> replicaHealth(body).get("state").asText().equals("down"));
    assertThat(ready.get("status").asText()).isEqualTo("ok");
    double fromPrimary = routed("primary_no_replica") + routed("primary_replica_failed");
    long seq = EndToEnd.send(alice, CONV, 1).get(0).get("seq").asLong();
    JsonNode page = EndToEnd.ok(bob.get("/v1/conversations/" + CONV + "/messages?after=" + (seq - 2)));
    assertThat(EndToEnd.seqs(page)).containsExactly(seq - 1, seq);
    JsonNode synced = EndToEnd.ok(bob.post("/v1/sync", "{\"cursors\":{\"" + CONV + "\":" + (seq - 1) + "}}"));
    assertThat(synced.get("conversations").get(0).get("latestSeq").asLong()).isEqualTo(seq);
    assertThat(routed("primary_no_replica") + routed("primary_replica_failed")).isGreaterThanOrEqualTo(fromPrimary + 2);
    assertThat(EndToEnd.metric(app, "seqsync_postgres_replicas_down", "")).isEqualTo(1);
  }

  private static JsonNode replicaHealth(JsonNode ready) {
    return ready.get("dependencies").get("postgresReplicas").get("replicas").get(0);
  }

  private static double routed(String reason) {
    return EndToEnd.metric(app, "seqsync_postgres_routed_reads_total", "reason=\"" + reason + "\"");
  }

  private static void onReplica(String sql) throws SQLException {
    try (Connection connection = DriverManager.getConnection(replica.jdbcUrl(), "postgres", "");
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }
}
