package io.seqsync.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.seqsync.config.ConfigLoader;
import io.seqsync.config.SeqsyncConfig;
import io.seqsync.localstack.LocalPostgres;
import io.seqsync.store.ConversationQueries;
import io.seqsync.store.ListCursor;
import io.seqsync.store.ListEntry;
import io.seqsync.store.shard.ConversationPartitions;
import io.seqsync.store.shard.ShardMap;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.LongStream;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The app on two PostgreSQL shards (partitions 0-1 in one, 2 in the other): sends, pages, the
 * list and the handshake (in pages of two, so that its pages merge both shards' memberships) answer
 * every conversation, and each conversation's rows and each partition's offsets are only in its
 * shard. The list's PostgreSQL path (Redis down) merges both shards in the list's order.
 */
class ShardsEndToEndTest {
  private static final String SECRET = "shards-test-secret-0123456789abcdef";
  private static final int PARTITIONS = 3;
  private static final int[] SHARD_OF_PARTITION = {0, 0, 1};

  @TempDir Path dir;

  @Test
  void eachConversationIsStoredInItsShardAndWhatSpansConversationsSpansBoth() throws Exception {
    List<String> convs = LongStream.rangeClosed(2, 13).mapToObj(peer -> "d:1:" + peer).toList();
    Map<Integer, Set<String>> convsOfShard = new HashMap<>(Map.of(0, new HashSet<>(), 1, new HashSet<>()));
    convs.forEach(conv -> convsOfShard.get(shardOf(conv)).add(conv));
    assertThat(convsOfShard.values()).as("both shards hold conversations").allSatisfy(held -> assertThat(held).isNotEmpty());

    try (LocalPostgres first = LocalPostgres.start(dir.resolve("pg0"), 0);
        LocalPostgres second = LocalPostgres.start(dir.resolve("pg1"), 0);
        SeqsyncApp app = SeqsyncApp.start(config(first.jdbcUrl(), second.jdbcUrl()))) {
      ApiClient alice = EndToEnd.client(app, 1, "phone");
      for (String conv : convs) {
        EndToEnd.send(alice, conv, 2);
      }
      for (String conv : convs) {
        assertThat(EndToEnd.seqs(EndToEnd.ok(alice.get("/v1/conversations/" + conv + "/messages?after=0"))))
            .as(conv).containsExactly(1L, 2L);
      }
      JsonNode list = EndToEnd.await(() -> EndToEnd.ok(alice.get("/v1/conversations?limit=100")),
          answer -> answer.get("conversations").size() == convs.size());
      list.get("conversations").forEach(entry -> assertThat(entry.get("latestSeq").asLong()).isEqualTo(2));
      assertThat(handshake(EndToEnd.client(app, 1, "laptop"))).containsExactlyInAnyOrderElementsOf(convs);

      List<Jdbi> shards = List.of(Jdbi.create(first.jdbcUrl(), first.user(), first.password()),
          Jdbi.create(second.jdbcUrl(), second.user(), second.password()));
      for (int shard = 0; shard < 2; shard++) {
        Jdbi jdbi = shards.get(shard);
        Set<String> stored = jdbi.withHandle(handle -> handle.createQuery("select distinct conv_id from messages")
            .mapTo(String.class).set());
        assertThat(stored).as("shard %d's messages", shard).isEqualTo(convsOfShard.get(shard));
        int index = shard;
        List<Integer> partitions = jdbi.withHandle(handle -> handle.createQuery("select partition from projector_offsets")
            .mapTo(Integer.class).list());
        assertThat(partitions).isNotEmpty().as("shard %d's offsets", shard)
            .allSatisfy(partition -> assertThat(SHARD_OF_PARTITION[partition]).isEqualTo(index));
      }
      assertListFromPostgresMergesShards(ShardMap.of(shards, SHARD_OF_PARTITION), convs);
    }
  }

  // Pages of 5 over 12 conversations in two shards: every one once, most recently active first.
  private static void assertListFromPostgresMergesShards(ShardMap shards, List<String> convs) {
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
    assertThat(all).extracting(ranked -> ranked.entry().convId()).containsExactlyInAnyOrderElementsOf(convs);
    assertThat(all).isSortedAccordingTo(ListEntry.Ranked.LIST_ORDER);
    assertThat(all).allSatisfy(ranked -> assertThat(ranked.entry().latestSeq()).isEqualTo(2));
  }

  // Every page of a new device's handshake; each conversation must come once.
  private static List<String> handshake(ApiClient device) {
    List<String> answered = new ArrayList<>();
    String next = null;
    do {
      JsonNode page = EndToEnd.ok(device.post("/v1/sync",
          "{\"cursors\":{}" + (next == null ? "" : ",\"next\":\"" + next + "\"") + "}"));
      page.get("conversations").forEach(conv -> {
        assertThat(conv.get("latestSeq").asLong()).isEqualTo(2);
        answered.add(conv.get("convId").asText());
      });
      next = page.get("limited").asBoolean() ? page.get("next").asText() : null;
    } while (next != null);
    assertThat(answered).doesNotHaveDuplicates();
    return answered;
  }

  private static int shardOf(String conv) {
    return SHARD_OF_PARTITION[ConversationPartitions.of(conv, PARTITIONS)];
  }

  private SeqsyncConfig config(String firstUrl, String secondUrl) {
    Map<String, String> settings = new HashMap<>(Map.of(
        "data-dir", dir.resolve("app").toString(),
        "kafka.embedded-port", "0",
        "redis.embedded-port", "0",
        "http.port", "0",
        "http.reply-budget", "10s",
        "kafka.partitions", Integer.toString(PARTITIONS),
        "auth.secret", SECRET,
        "postgres.shards", "0-1=" + firstUrl + ",2=" + secondUrl,
        "sync.page-size", "2",
        "sync.screen-conversations", "2"));
    settings.putAll(SeqsyncConfig.Limits.raisedTo(EndToEnd.RAISED_LIMITS));
    return ConfigLoader.of(settings);
  }
}
