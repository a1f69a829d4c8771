package io.seqsync.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.seqsync.config.ConfigLoader;
import io.seqsync.config.KafkaConnection;
import io.seqsync.config.LimitsSettings;
import io.seqsync.config.SeqsyncConfig;
import io.seqsync.events.Topics;
import io.seqsync.localstack.LocalPostgres;
import io.seqsync.localstack.LocalPostgresReplica;
import io.seqsync.projector.PartitionMove;
import io.seqsync.store.ConversationQueries;
import io.seqsync.store.ListCursor;
import io.seqsync.store.ListEntry;
import io.seqsync.store.shard.ConversationPartitions;
import io.seqsync.store.shard.ShardMap;
import io.seqsync.testkit.ApiClient;
import java.net.URI;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The app on two PostgreSQL shards (partitions 0-1 in the first, 2 in the second, which has a
 * streaming replica): sends, pages, the list and the handshake (in pages of two, so that its pages
 * merge both shards' memberships) answer every conversation, the second shard's pages and handshakes
 * through its replica, and each conversation's rows and each partition's offsets are only in its
 * shard; the list's PostgreSQL path (while Redis is down) merges both shards in the list's order.
 * With the replica's replay paused, a page or handshake right after a send's 200 still shows it;
 * with the replica stopped, the second shard's primary answers. Then partition 1 moves to the second shard as docs/operations.md says: copied from the
 * event log while the app runs, its tail copied with the app stopped, the mapping switched and
 * the first shard pruned; everything sent before and after the move is there, once. Then erasure
 * and retention reach both shards ({@link ShardedErasureChecks}). Last, with the second shard's
 * primary stopped, its conversations' sends answer 503 and the first shard's 200.
 */
class ShardsEndToEndTest {
  private static final String SECRET = "shards-test-secret-0123456789abcdef";
  private static final int PARTITIONS = 3;
  private static final List<String> CONVS = LongStream.rangeClosed(2, 13).mapToObj(peer -> "d:1:" + peer).toList();

  @TempDir Path dir;

  @Test
  void eachConversationIsStoredInItsShardWhatSpansConversationsSpansBothAndAPartitionMoves() throws Exception {
    int[] before = {0, 0, 1};
    int[] after = {0, 1, 1};
    assertThat(CONVS.stream().map(conv -> before[partitionOf(conv)]).distinct()).as("both shards hold conversations")
        .hasSize(2);
    assertThat(CONVS.stream().filter(conv -> partitionOf(conv) == 1)).as("partition 1 has conversations to move")
        .isNotEmpty();
    assertThat(CONVS).as("Kafka's partitioner agrees").allSatisfy(conv -> assertThat(partitionOf(conv)).isEqualTo(
        org.apache.kafka.common.utils.Utils.toPositive(org.apache.kafka.common.utils.Utils.murmur2(
            conv.getBytes(java.nio.charset.StandardCharsets.UTF_8))) % PARTITIONS));

    try (LocalPostgres first = LocalPostgres.start(dir.resolve("pg0"), 0);
        LocalPostgres second = LocalPostgres.start(dir.resolve("pg1"), 0);
        LocalPostgresReplica replica = LocalPostgresReplica.start(second.jdbcUrl(), dir.resolve("pg1r"), 0, "shard_1")) {
      List<Jdbi> shards = List.of(Jdbi.create(first.jdbcUrl(), first.user(), first.password()),
          Jdbi.create(second.jdbcUrl(), second.user(), second.password()));
      SeqsyncConfig config = config("0-1=" + first.jdbcUrl() + ",2=" + second.jdbcUrl() + "|" + replica.jdbcUrl());
      String events = Topics.from(config.kafka()).events().name();
      try (SeqsyncApp app = SeqsyncApp.start(config)) {
        ApiClient alice = EndToEnd.client(app, 1, "phone");
        CONVS.forEach(conv -> EndToEnd.send(alice, conv, 2));
        assertReadsGoToTheSecondShardsReplicaWhenCurrent(app, replica, alice);
        assertStoredOnlyInTheirShards(shards, before);
        assertListFromPostgresMergesShards(ShardMap.of(shards, before), 3);

        // A user erased before the move, who wrote in partition 1: the copy rebuilds their rows from
        // the log, and must purge them again.
        ShardedErasureChecks erasedBefore = new ShardedErasureChecks(app, config, ShardMap.of(shards, before),
            conv -> before[partitionOf(conv)]);
        String erasedConv = LongStream.range(701, 800).mapToObj(peer -> "d:700:" + peer)
            .filter(conv -> partitionOf(conv) == 1).findFirst().orElseThrow();
        erasedBefore.erasedAfterWritingIn(700, erasedConv);

        // The move: partition 1 copied from the event log while the app serves it from the first shard.
        PartitionMove.copy(KafkaConnection.plain(app.stack().kafkaBootstrapServers()), events, Set.of(1),
            shards.get(1), shards.get(0), 500);
        assertThat(erasedBefore.rowsOf(700)).as("an erased user's rows after the copy").isEmpty();
        List<String> moved = CONVS.stream().filter(conv -> partitionOf(conv) == 1).toList();
        long copied = shards.get(1).withHandle(handle -> handle.createQuery("select count(*) from messages"
            + " where conv_id = any(:moved)").bindArray("moved", String.class, moved).mapTo(Long.class).one());
        assertThat(copied).as("copied while serving").isEqualTo(3L * moved.size());
        CONVS.forEach(conv -> EndToEnd.send(alice, conv, 1)); // the tail: stored in the first shard only
      }
      // Every instance stopped: the first shard pruned, the mapping switched; the projector takes the
      // tail from the event log where the copy's offsets in the second shard say.
      PartitionMove.prune(shards.get(0), events, Set.of(1), PARTITIONS);
      SeqsyncConfig moved = config("0=" + first.jdbcUrl() + ",1-2=" + second.jdbcUrl());
      try (SeqsyncApp app = SeqsyncApp.start(moved)) {
        assertEverythingAnswered(app, 4);
        CONVS.forEach(conv -> EndToEnd.send(EndToEnd.client(app, 1, "phone"), conv, 1));
        assertEverythingAnswered(app, 5);
        assertStoredOnlyInTheirShards(shards, after);
        assertListFromPostgresMergesShards(ShardMap.of(shards, after), 5);

        // Erasure on both shards (with this app start: another would cost the suite its time).
        ShardedErasureChecks erasure = new ShardedErasureChecks(app, moved, ShardMap.of(shards, after),
            conv -> after[partitionOf(conv)]);
        erasure.userErasedOnEveryShard(1);
        erasure.retentionBlanksEveryShardAndTheListsPreviews(500);

        assertADownShardsConversationsAreRefusedAlone(app, second, dir.resolve("pg1"), after);
      }
    }
  }

  // The second shard's primary stopped: its conversations' sends answer 503 database_unavailable
  // (nothing reaches Kafka), the first shard's still 200; started again, its sends answer 200 and
  // none of the refused ones was stored.
  private static void assertADownShardsConversationsAreRefusedAlone(SeqsyncApp app, LocalPostgres second, Path data,
      int[] shardOfPartition) throws Exception {
    ApiClient carol = EndToEnd.client(app, 3, "phone");
    String up = LongStream.range(900, 1000).mapToObj(peer -> "d:3:" + peer)
        .filter(conv -> shardOfPartition[partitionOf(conv)] == 0).findFirst().orElseThrow();
    String down = LongStream.range(900, 1000).mapToObj(peer -> "d:3:" + peer)
        .filter(conv -> shardOfPartition[partitionOf(conv)] == 1).findFirst().orElseThrow();
    int port = URI.create(second.jdbcUrl().substring("jdbc:".length())).getPort();
    second.close();
    List<ApiClient.Response> untilRefused = sendUntil(carol, down, 503);
    ApiClient.Response refused = untilRefused.get(untilRefused.size() - 1);
    assertThat(refused.body().path("error").path("code").asText()).as("%s", refused.body())
        .isEqualTo("database_unavailable");
    assertThat(refused.retryAfter()).isEqualTo("1");
    List<ApiClient.Response> refusedAgain = sendUntil(carol, down, 503);
    assertThat(refusedAgain).as("refused while down").hasSize(1);
    EndToEnd.send(carol, up, 2);
    assertThat(EndToEnd.metrics(app)).contains("seqsync_postgres_shard_up{shard=\"1\"} 0.0");
    try (LocalPostgres again = LocalPostgres.start(data, port)) {
      List<ApiClient.Response> untilStored = sendUntil(carol, down, 200);
      // Taken before the probe saw the shard down (202) or after it came back (200): stored; refused: not.
      long taken = Stream.concat(untilRefused.stream(), untilStored.stream())
          .filter(response -> response.status() == 200 || response.status() == 202).count();
      assertThat(EndToEnd.send(carol, down, 1).get(0).path("seq").asLong()).as("the refused sends were never stored")
          .isEqualTo(taken + 1);
    }
  }

  // Sends new messages to conv, 200 ms apart, until one is answered `status` (within 30 s): every answer.
  private static List<ApiClient.Response> sendUntil(ApiClient client, String conv, int status) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    List<ApiClient.Response> answers = new ArrayList<>();
    while (true) {
      ApiClient.Response response = client.post("/v1/conversations/" + conv + "/messages",
          "{\"clientMsgId\":\"" + UUID.randomUUID() + "\",\"type\":\"text\",\"content\":\"x\"}");
      answers.add(response);
      if (response.status() == status || System.nanoTime() > deadline) {
        assertThat(response.status()).as("%s", response.body()).isEqualTo(status);
        return answers;
      }
      Thread.sleep(200);
    }
  }

  private static void assertEverythingAnswered(SeqsyncApp app, long latestSeq) {
    ApiClient alice = EndToEnd.client(app, 1, "phone");
    for (String conv : CONVS) {
      assertThat(EndToEnd.seqs(EndToEnd.ok(alice.get("/v1/conversations/" + conv + "/messages?after=0"))))
          .as(conv).containsExactlyElementsOf(LongStream.rangeClosed(1, latestSeq).boxed().toList());
    }
    JsonNode list = EndToEnd.await(() -> EndToEnd.ok(alice.get("/v1/conversations?limit=100")).get("conversations"),
        entries -> entries.size() == CONVS.size() && java.util.stream.StreamSupport.stream(entries.spliterator(), false)
            .allMatch(entry -> entry.get("latestSeq").asLong() == latestSeq));
    List<String> listed = new ArrayList<>();
    list.forEach(entry -> listed.add(entry.get("convId").asText()));
    assertThat(listed).containsExactlyInAnyOrderElementsOf(CONVS);
    assertThat(handshake(EndToEnd.client(app, 1, "laptop-" + latestSeq), latestSeq))
        .containsExactlyInAnyOrderElementsOf(CONVS);
  }

  // Every conversation at seq 2: the second shard's pages and handshakes read its replica once it
  // caught up; with its replay paused, each send's page and handshake (seq 3) still show the send; with
  // it stopped, the second shard's primary answers.
  private static void assertReadsGoToTheSecondShardsReplicaWhenCurrent(SeqsyncApp app, LocalPostgresReplica replica,
      ApiClient alice) throws SQLException {
    awaitReplica(app, replicaState -> replicaState.get("state").asText().equals("up")
        && replicaState.get("lagBytes").asLong() == 0);
    double fromReplica = routed(app, "replica", 1);
    assertEverythingAnswered(app, 2);
    assertThat(routed(app, "replica", 1)).as("the second shard's reads its replica answered").isGreaterThan(fromReplica);
    assertThat(routed(app, "replica", 0)).as("the first shard has no replica").isZero();
    assertThat(EndToEnd.metric(app, "seqsync_postgres_replica_lag_seconds", "shard=\"1\"")).isLessThan(30);

    double fromPrimary = routed(app, "primary_stale", 1) + routed(app, "primary_no_replica", 1);
    onReplica(replica, "select pg_wal_replay_pause()");
    try {
      for (String conv : CONVS) {
        long seq = EndToEnd.send(alice, conv, 1).get(0).get("seq").asLong();
        assertNotOlderThan(alice, conv, seq);
      }
    } finally {
      onReplica(replica, "select pg_wal_replay_resume()");
    }
    assertThat(routed(app, "primary_stale", 1) + routed(app, "primary_no_replica", 1))
        .as("the second shard's reads its primary answered in the lagging replica's place").isGreaterThan(fromPrimary);

    replica.close();
    JsonNode ready = awaitReplica(app, replicaState -> replicaState.get("state").asText().equals("down"));
    assertThat(ready.get("status").asText()).isEqualTo("ok");
    double fromReplicaBeforeStop = routed(app, "replica", 1);
    fromPrimary = routed(app, "primary_no_replica", 1) + routed(app, "primary_replica_failed", 1);
    assertEverythingAnswered(app, 3);
    assertThat(routed(app, "primary_no_replica", 1) + routed(app, "primary_replica_failed", 1))
        .as("the second shard's reads with its replica stopped").isGreaterThan(fromPrimary);
    assertThat(routed(app, "replica", 1)).isEqualTo(fromReplicaBeforeStop);
    assertThat(EndToEnd.metric(app, "seqsync_postgres_replicas_down", "")).isEqualTo(1);
  }

  // A page and a handshake right after the 200 of seq: both show it, whichever database answers.
  private static void assertNotOlderThan(ApiClient client, String conv, long seq) {
    JsonNode latest = EndToEnd.ok(client.get("/v1/conversations/" + conv + "/messages?last=20"));
    assertThat(latest.get("latestSeq").asLong()).as("%s: last=20 after a 200 for seq %d", conv, seq).isEqualTo(seq);
    assertThat(EndToEnd.seqs(latest)).endsWith(seq);
    // The handshake's pages (of two) until the one listing conv.
    String next = null;
    JsonNode listed = null;
    do {
      JsonNode page = EndToEnd.ok(client.post("/v1/sync", "{\"cursors\":{\"" + conv + "\":" + (seq - 1) + "}"
          + (next == null ? "" : ",\"next\":\"" + next + "\"") + "}"));
      for (JsonNode entry : page.get("conversations")) {
        listed = entry.get("convId").asText().equals(conv) ? entry : listed;
      }
      next = page.get("limited").asBoolean() ? page.get("next").asText() : null;
    } while (listed == null && next != null);
    assertThat(listed).as("%s: listed by a handshake after a 200 for seq %d", conv, seq).isNotNull();
    assertThat(listed.get("latestSeq").asLong()).as("%s: a handshake after a 200 for seq %d", conv, seq).isEqualTo(seq);
  }

  // The ready answer once the second shard's replica satisfies the check.
  private static JsonNode awaitReplica(SeqsyncApp app, Predicate<JsonNode> check) {
    ApiClient probe = EndToEnd.client(app, 1, "probe");
    return EndToEnd.await(() -> probe.get("/health/ready").body(), body -> {
      JsonNode replica = body.get("dependencies").get("postgresReplicas").get("replicas").get(0);
      return replica.get("shard").asInt() == 1 && check.test(replica);
    });
  }

  private static double routed(SeqsyncApp app, String reason, int shard) {
    return EndToEnd.metric(app, "seqsync_postgres_routed_reads_total", "reason=\"" + reason + "\",shard=\"" + shard + "\"");
  }

  private static void onReplica(LocalPostgresReplica replica, String sql) throws SQLException {
    try (Connection connection = DriverManager.getConnection(replica.jdbcUrl(), "postgres", "");
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  private static void assertStoredOnlyInTheirShards(List<Jdbi> shards, int[] shardOfPartition) {
    for (int shard = 0; shard < shards.size(); shard++) {
      int index = shard;
      Set<String> expected = CONVS.stream().filter(conv -> shardOfPartition[partitionOf(conv)] == index)
          .collect(Collectors.toSet());
      Set<String> stored = shards.get(shard).withHandle(handle -> handle.createQuery(
          "select distinct conv_id from messages where conv_id like 'd:1:%'").mapTo(String.class).set());
      assertThat(stored).as("shard %d's messages", shard).isEqualTo(expected);
      List<Integer> partitions = shards.get(shard).withHandle(handle -> handle.createQuery(
          "select partition from projector_offsets").mapTo(Integer.class).list());
      assertThat(partitions).as("shard %d's offsets", shard).isNotEmpty()
          .allSatisfy(partition -> assertThat(shardOfPartition[partition]).isEqualTo(index));
    }
  }

  // Pages of 5 over 12 conversations in two shards: every one once, most recently active first.
  private static void assertListFromPostgresMergesShards(ShardMap shards, long latestSeq) {
    ConversationQueries queries = new ConversationQueries(shards);
    List<ListEntry.Ranked> all = new ArrayList<>();
    ListCursor cursor = null;
    List<ListEntry.Ranked> page;
    do {
      page = queries.list(1, 5, cursor);
      all.addAll(page);
      if (!page.isEmpty()) {
        ListEntry.Ranked last = page.get(page.size() - 1);
        cursor = new ListCursor(last.activity(), last.entry().convId());
      }
    } while (page.size() == 5);
    assertThat(all).extracting(ranked -> ranked.entry().convId()).containsExactlyInAnyOrderElementsOf(CONVS);
    assertThat(all).isSortedAccordingTo(ListEntry.Ranked.LIST_ORDER);
    assertThat(all).allSatisfy(ranked -> assertThat(ranked.entry().latestSeq()).isEqualTo(latestSeq));
  }

  // Every page of a new device's handshake; each conversation must come once.
  private static List<String> handshake(ApiClient device, long latestSeq) {
    List<String> answered = new ArrayList<>();
    String next = null;
    do {
      JsonNode page = EndToEnd.ok(device.post("/v1/sync",
          "{\"cursors\":{}" + (next == null ? "" : ",\"next\":\"" + next + "\"") + "}"));
      page.get("conversations").forEach(conv -> {
        assertThat(conv.get("latestSeq").asLong()).isEqualTo(latestSeq);
        answered.add(conv.get("convId").asText());
      });
      next = page.get("limited").asBoolean() ? page.get("next").asText() : null;
    } while (next != null);
    assertThat(answered).doesNotHaveDuplicates();
    return answered;
  }

  private static int partitionOf(String conv) {
    return ConversationPartitions.of(conv, PARTITIONS);
  }

  private SeqsyncConfig config(String shards) {
    Map<String, String> settings = new HashMap<>(Map.of(
        "data-dir", dir.resolve("app").toString(),
        "kafka.embedded-port", "0",
        "redis.embedded-port", "0",
        "http.port", "0",
        "http.reply-budget", "10s",
        "kafka.partitions", Integer.toString(PARTITIONS),
        "auth.secret", SECRET,
        "postgres.shards", shards,
        "sync.page-size", "2",
        "sync.screen-conversations", "2"));
    settings.putAll(LimitsSettings.raisedTo(EndToEnd.RAISED_LIMITS));
    return ConfigLoader.of(settings);
  }
}
