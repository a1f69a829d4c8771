package io.seqsync.app;

import static io.seqsync.app.EndToEnd.accepted;
import static io.seqsync.app.EndToEnd.await;
import static io.seqsync.app.EndToEnd.entry;
import static io.seqsync.app.EndToEnd.ok;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.seqsync.config.SeqsyncConfig;
import io.seqsync.projector.erasure.Retention;
import io.seqsync.redis.ConversationIndex;
import io.seqsync.store.keys.ContentKeys;
import io.seqsync.store.keys.ContentOpener;
import io.seqsync.store.keys.MasterKeys;
import io.seqsync.store.shard.ShardMap;
import io.seqsync.testkit.ApiClient;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.ToIntFunction;
import java.util.stream.LongStream;
import org.jdbi.v3.core.Jdbi;
import redis.clients.jedis.JedisPooled;

/**
 * Erasure with shards, on {@link ShardsEndToEndTest}'s running app (docs/design.md, "Erasure"):
 * a user erased on request leaves no row of theirs and none of their texts on either shard, nor a
 * list preview of them; retention blanks old texts on both shards and the list's previews and
 * drafts in Redis.
 */
final class ShardedErasureChecks {
  private final SeqsyncApp app;
  private final SeqsyncConfig config;
  private final ShardMap shards;
  private final ToIntFunction<String> shardOf;

  /** {@code shardOf}: the index of a conversation's shard. */
  ShardedErasureChecks(SeqsyncApp app, SeqsyncConfig config, ShardMap shards, ToIntFunction<String> shardOf) {
    this.app = app;
    this.config = config;
    this.shards = shards;
    this.shardOf = shardOf;
  }

  /** Erases {@code user} after they wrote in a direct conversation on each shard. */
  void userErasedOnEveryShard(long user) {
    String marker = marker();
    ApiClient erased = EndToEnd.client(app, user, "phone");
    List<Long> onBoth = List.of(peerOn(user, 0), peerOn(user, 1));
    for (long peer : onBoth) {
      String conv = "d:" + user + ":" + peer;
      send(erased, conv, "bye " + marker);
      accepted(erased.put("/v1/conversations/" + conv + "/draft", "{\"text\":\"draft " + marker + "\"}"));
      await(() -> entry(EndToEnd.client(app, peer, "phone"), conv), e -> content(e).contains(marker));
    }
    assertThat(hits(marker)).as("before the erasure").isNotEmpty();

    ApiClient service = new ApiClient(app.httpPort(), app.tokens().mintService("backend", Duration.ofHours(1)));
    ok(service.post("/v1/users/" + user + "/erase", ""));
    assertThat(hits(marker)).as("the marker after the erasure").isEmpty();
    assertThat(rowsOf(user)).as("the user's rows after the erasure").isEmpty();
    for (long peer : onBoth) {
      assertThat(content(entry(EndToEnd.client(app, peer, "phone"), "d:" + user + ":" + peer)))
          .as("the peer's list preview").isEqualTo(ContentOpener.ERASED);
    }
  }

  /** Erases {@code user} after they wrote a text and a draft in {@code conv}; none of their rows is left. */
  void erasedAfterWritingIn(long user, String conv) {
    ApiClient erased = EndToEnd.client(app, user, "phone");
    send(erased, conv, "before the move");
    accepted(erased.put("/v1/conversations/" + conv + "/draft", "{\"text\":\"a draft\"}"));
    await(() -> entry(erased, conv), entry -> entry != null && entry.path("draft").asText("").equals("a draft"));
    ApiClient service = new ApiClient(app.httpPort(), app.tokens().mintService("backend", Duration.ofHours(1)));
    ok(service.post("/v1/users/" + user + "/erase", ""));
    assertThat(rowsOf(user)).as("the user's rows after the erasure").isEmpty();
  }

  /** A user's texts and drafts on both shards, then retention run as if two days later. */
  void retentionBlanksEveryShardAndTheListsPreviews(long user) {
    String marker = marker();
    ApiClient writer = EndToEnd.client(app, user, "phone");
    List<String> convs = new ArrayList<>();
    for (int shard = 0; shard < 2; shard++) {
      String conv = "d:" + user + ":" + peerOn(user, shard);
      convs.add(conv);
      send(writer, conv, "old " + marker);
      accepted(writer.put("/v1/conversations/" + conv + "/draft", "{\"text\":\"old draft " + marker + "\"}"));
      await(() -> entry(writer, conv), e -> content(e).contains(marker) && e.path("draft").asText().contains(marker));
    }

    try (JedisPooled redis = new JedisPooled(URI.create(app.stack().redisUri()))) {
      ContentKeys keys = new ContentKeys(shards.home(), MasterKeys.load(config.erasure(), config.dataDir()));
      Retention.Erased erased = new Retention(shards, keys, 1, new ConversationIndex(redis))
          .run(Instant.now().plus(Duration.ofDays(2)));
      assertThat(erased.drafts()).isGreaterThanOrEqualTo(2);
    }
    assertThat(hits(marker)).as("the marker after retention").isEmpty();
    for (String conv : convs) {
      JsonNode entry = entry(writer, conv);
      assertThat(content(entry)).as("%s's list preview", conv).isEqualTo(ContentOpener.ERASED);
      assertThat(entry.path("draft").asText("")).as("%s's draft", conv).doesNotContain(marker);
    }
  }

  // A peer whose direct conversation with the user is on the shard.
  private long peerOn(long user, int shard) {
    return LongStream.range(user + 1, user + 100).filter(peer -> shardOf.applyAsInt("d:" + user + ":" + peer) == shard)
        .findFirst().orElseThrow();
  }

  private static String marker() {
    return "MARK" + UUID.randomUUID().toString().replace("-", "");
  }

  private static void send(ApiClient client, String conv, String text) {
    ok(client.post("/v1/conversations/" + conv + "/messages",
        "{\"clientMsgId\":\"" + UUID.randomUUID() + "\",\"type\":\"text\",\"content\":\"" + text + "\"}"));
  }

  private static String content(JsonNode entry) {
    return entry == null ? "" : entry.path("lastMessage").path("content").asText("");
  }

  // Every table of every shard, each row as text.
  private List<String> hits(String marker) {
    List<String> hits = new ArrayList<>();
    for (int shard = 0; shard < shards.size(); shard++) {
      for (String table : tables(shards.all().get(shard), "select table_name from information_schema.tables"
          + " where table_schema = current_schema() and table_type = 'BASE TABLE'")) {
        long found = shards.all().get(shard).withHandle(handle -> handle.createQuery(
            "select count(*) from " + table + " t where t::text like :marker").bind("marker", "%" + marker + "%")
            .mapTo(Long.class).one());
        if (found > 0) {
          hits.add("shard " + shard + " " + table + ": " + found);
        }
      }
    }
    return hits;
  }

  /** Rows naming the user in a user_id column, on every shard, but the record of the erasure. */
  List<String> rowsOf(long user) {
    List<String> rows = new ArrayList<>();
    for (int shard = 0; shard < shards.size(); shard++) {
      Jdbi jdbi = shards.all().get(shard);
      for (String table : tables(jdbi, "select table_name from information_schema.columns where table_schema ="
          + " current_schema() and column_name = 'user_id' and table_name not in ('erased_users', 'revocations')")) {
        long found = jdbi.withHandle(handle -> handle.createQuery("select count(*) from " + table
            + " where user_id = :user").bind("user", user).mapTo(Long.class).one());
        if (found > 0) {
          rows.add("shard " + shard + " " + table + ": " + found);
        }
      }
    }
    return rows;
  }

  private static List<String> tables(Jdbi jdbi, String query) {
    return jdbi.withHandle(handle -> handle.createQuery(query).mapTo(String.class).list());
  }
}
