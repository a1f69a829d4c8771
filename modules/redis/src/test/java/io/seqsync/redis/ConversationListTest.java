package io.seqsync.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqsync.config.RedisEndpoint;
import io.seqsync.localstack.LocalPostgres;
import io.seqsync.localstack.RedisTopology;
import io.seqsync.store.ConversationQueries;
import io.seqsync.store.Database;
import io.seqsync.store.IndexSourceQueries;
import io.seqsync.store.ListEntry;
import io.seqsync.store.StoredMessage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.ScanIteration;
import redis.clients.jedis.UnifiedJedis;

/**
 * Unread counts when Redis keeps only the latest countable seqs of a conversation (here 5): for
 * every read position the list answers what PostgreSQL counts, from Redis above the floor and
 * from PostgreSQL below it, whether the sets were trimmed as messages arrived or rebuilt after a
 * flush. On one Redis and on a Redis Cluster of three masters, where every script's keys must share
 * a hash slot and the keys spread over the masters.
 */
@ParameterizedClass
@EnumSource(RedisTopology.class)
class ConversationListTest {
  private static final String CONV = "d:1:2";
  private static final int KEPT = 5;
  private static final int MESSAGES = 12;

  @TempDir static Path dir;
  @Parameter RedisTopology topology;
  private static LocalPostgres postgres;
  private static RedisTopology.Running redisServer;
  private static Database database;
  private static UnifiedJedis redis;
  private static ConversationIndex index;
  private static ConversationIndexRebuild rebuild;
  private static ConversationList list;
  private static RedisHealth redisHealth;

  @BeforeAll
  static void startPostgres() {
    postgres = LocalPostgres.start(dir.resolve("postgres"), 0);
  }

  @AfterAll
  static void stopPostgres() {
    postgres.close();
  }

  @BeforeParameterizedClassInvocation
  static void start(RedisTopology topology) {
    redisServer = topology.start(dir.resolve(topology.name()));
    database = Database.open(postgres.createDatabase("conversation_list_" + topology.name().toLowerCase(Locale.ROOT)),
        postgres.user(), postgres.password(), 2);
    redis = RedisClients.connect(RedisEndpoint.parse(redisServer.uri()));
    assertThat(RedisClients.isCluster(redis)).isEqualTo(topology == RedisTopology.CLUSTER);
    index = new ConversationIndex(redis, KEPT);
    rebuild = new ConversationIndexRebuild(new IndexSourceQueries(database.jdbi()), index);
    redisHealth = new RedisHealth(redisServer.uri());
    list = new ConversationList(redis, rebuild, new ConversationQueries(database.jdbi()), redisHealth);
  }

  @AfterParameterizedClassInvocation
  static void stop() {
    redisHealth.close();
    redis.close();
    database.close();
    redisServer.close();
  }

  @Test
  void everyReadPositionCountsAsPostgresDoesAcrossTheFloorAndAfterAFlush() {
    // Seqs 1-12: user 1's texts, but 4 is user 2's own, 6 a system notice; 9 and 2 recalled later.
    database.jdbi().useHandle(handle -> {
      handle.execute("insert into conversations (conv_id, kind, latest_seq) values (?, 'direct', ?)", CONV, MESSAGES);
      for (int seq = 1; seq <= MESSAGES; seq++) {
        long sender = seq == 4 ? 2 : 1;
        String type = seq == 6 ? "system" : "text";
        handle.execute("insert into messages (conv_id, seq, msg_id, sender_id, sender_device, client_msg_id, type,"
            + " content, create_time) values (?, ?, ?, ?, 'phone', ?, ?, 'x', ?)", CONV, seq, 100 + seq, sender,
            "c" + seq, type, 1_000L * seq);
        StoredMessage message = new StoredMessage(100 + seq, CONV, seq, sender, "phone", "c" + seq, type, "x",
            1_000L * seq, false, null, null);
        try (ConversationIndex.Batch batch = index.batch()) {
          batch.message(message, false);
        }
      }
      handle.execute("update messages set recalled = true where conv_id = ? and seq in (2, 9)", CONV);
    });
    try (ConversationIndex.Batch batch = index.batch()) {
      batch.recall(CONV, 2, 1).recall(CONV, 9, 1);
    }
    index.markBuilt(IndexKeys.conversation(CONV)); // as the projector left it: trimmed as it went
    assertThat(redis.zcard(IndexKeys.countable(CONV, null))).isEqualTo(KEPT);

    assertEveryReadPositionMatchesPostgres();
    redis.flushAll();
    assertEveryReadPositionMatchesPostgres(); // rebuilt: the latest 5 and the floor below them
    assertThat(redis.zcard(IndexKeys.countable(CONV, null))).isEqualTo(KEPT);
  }

  @Test
  void forgettingTheIndexDeletesItsKeysOnlyAndTheyAreRebuiltOnTheirFirstRead() {
    String convId = "d:7:8";
    database.jdbi().useHandle(handle -> {
      handle.execute("insert into conversations (conv_id, kind, latest_seq) values (?, 'direct', 1)", convId);
      handle.execute("insert into messages (conv_id, seq, msg_id, sender_id, sender_device, client_msg_id, type,"
          + " content, create_time) values (?, 1, 700, 7, 'phone', 'c1', 'text', 'x', 7000)", convId);
      handle.execute("insert into conversation_members (conv_id, user_id) values (?, 7), (?, 8)", convId, convId);
    });
    try (ConversationIndex.Batch batch = index.batch()) {
      batch.message(new StoredMessage(700, convId, 1, 7, "phone", "c1", "text", "x", 7_000L, false, null, null), true)
          .listed(7, convId, 7_000L).listed(8, convId, 7_000L);
    }
    redis.set("not-seqsync", "kept");
    long indexKeys = indexKeys().size();
    assertThat(indexKeys).isGreaterThanOrEqualTo(4);

    assertThat(index.forgetAll()).isEqualTo(indexKeys);
    assertThat(indexKeys()).isEmpty();
    assertThat(redis.get("not-seqsync")).isEqualTo("kept");
    assertThat(list.page(8, 10, null).conversations()).extracting(ListEntry::convId).contains(convId);
    assertThat(index.unread(convId, 8, 0)).hasValue(1);
  }

  @Test
  void scriptsRedisNoLongerHasRunFromTheirText() {
    String convId = "d:3:4";
    StoredMessage message = new StoredMessage(500, convId, 1, 3, "phone", "c1", "text", "x", 5_000L, false, null, null);
    redis.scriptFlush(); // as after a Redis restart: EVALSHA answers NOSCRIPT
    try (ConversationIndex.Batch batch = index.batch()) {
      batch.message(message, true).read(4, convId, 0);
    }
    assertThat(redis.hget(IndexKeys.conversation(convId), ConversationIndex.LATEST_SEQ)).isEqualTo("1");
    assertThat(redis.hget(IndexKeys.user(3), IndexKeys.readField(convId))).isEqualTo("1");
    assertThat(redis.hget(IndexKeys.user(4), IndexKeys.readField(convId))).isEqualTo("0");
    redis.scriptFlush();
    assertThat(index.unread(convId, 4, 0)).hasValue(1);
    assertThat(index.unread(convId, 3, 0)).as("their own message").hasValue(0);
  }

  @Test
  void aBatchOfMessagesSpanningSeveralScriptsMergesEveryMessage() {
    // Three conversations, 150 messages each, in one batch: 450 messages, three scripts' worth.
    int perConversation = 150;
    List<String> convIds = List.of("d:11:12", "d:13:14", "d:15:16");
    try (ConversationIndex.Batch batch = index.batch()) {
      for (int seq = 1; seq <= perConversation; seq++) {
        for (String convId : convIds) {
          long sender = senderOf(convId);
          batch.message(new StoredMessage(seq, convId, seq, sender, "phone", "c" + seq, "text", "text " + seq,
              1_000L * seq, false, null, null), true);
        }
      }
    }
    assertThat(3 * perConversation).isGreaterThan(2 * ConversationIndex.MESSAGES_PER_SCRIPT);
    for (String convId : convIds) {
      long sender = senderOf(convId);
      String conversation = IndexKeys.conversation(convId);
      assertThat(redis.hget(conversation, ConversationIndex.LATEST_SEQ)).isEqualTo("150");
      assertThat(RedisMessageCodec.decode(redis.hget(conversation, ConversationIndex.LAST_MESSAGE)).content())
          .isEqualTo("text 150");
      assertThat(redis.zrange(IndexKeys.countable(convId, null), 0, -1))
          .containsExactly("146", "147", "148", "149", "150");
      assertThat(redis.hget(conversation, ConversationIndex.FLOOR)).isEqualTo("145");
      assertThat(redis.hget(IndexKeys.user(sender), IndexKeys.readField(convId))).isEqualTo("150");
      assertThat(index.unread(convId, sender + 1, 147)).hasValue(3);
      assertThat(index.unread(convId, sender, 147)).as("their own messages").hasValue(0);
    }
  }

  // Every key of the index, on every node (KEYS answers for one node only).
  private static List<String> indexKeys() {
    List<String> keys = new ArrayList<>();
    ScanIteration scan = redis.scanIteration(1_000, IndexKeys.PREFIX + "*");
    while (!scan.isIterationCompleted()) {
      keys.addAll(scan.nextBatch().getResult());
    }
    return keys;
  }

  private static long senderOf(String convId) {
    return Long.parseLong(convId.split(":")[1]);
  }

  // Read positions only move forward, so walk them upwards; a flush starts them over.
  private static void assertEveryReadPositionMatchesPostgres() {
    for (long read = 0; read <= MESSAGES; read++) {
      try (ConversationIndex.Batch batch = index.batch()) {
        batch.read(2, CONV, read);
      }
      assertThat(list.unread(2, CONV)).as("unread above %d", read).isEqualTo(rebuild.unreadFromStore(CONV, 2, read));
    }
    assertThat(rebuild.unreadFromStore(CONV, 2, 0)).as("12 - own 4 - notice 6 - recalled 2 and 9").isEqualTo(8);
  }
}
