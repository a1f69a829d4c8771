package io.seqsync.projector;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seqsync.config.ConfigLoader;
import io.seqsync.config.KafkaConnection;
import io.seqsync.config.RedisEndpoint;
import io.seqsync.config.SeqsyncConfig;
import io.seqsync.consumers.TopicAdmin;
import io.seqsync.events.Topics;
import io.seqsync.events.model.Event;
import io.seqsync.localstack.RedisTopology;
import io.seqsync.redis.ConversationIndex;
import io.seqsync.redis.RedisClients;
import io.seqsync.redis.RedisHealth;
import io.seqsync.store.Database;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.UnifiedJedis;

/**
 * The Redis index catches up with what it missed: batches committed while no indexer was told of
 * them (a projector without listeners, as after a process died with batches queued for them) are
 * replayed from the event log when an indexer next starts; an index whose watermark is gone has
 * every built key distrusted instead. On one Redis and on a Redis Cluster of three masters (whose
 * SCAN for built keys must visit every master).
 */
@ParameterizedClass
@EnumSource(RedisTopology.class)
class IndexCatchUpTest extends OnTestServers {
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final List<String> CONVERSATIONS = List.of("d:1:2", "d:1:3", "d:2:3");

  @Parameter RedisTopology topology;
  private static RedisTopology.Running redisServer;
  private static UnifiedJedis redis;

  // The single topology uses the servers' own Redis; the cluster one its own three nodes.
  @BeforeParameterizedClassInvocation
  static void startRedis(RedisTopology topology) {
    redisServer = topology == RedisTopology.SINGLE ? null : topology.start(dir.resolve(topology.name()));
    redis = RedisClients.connect(RedisEndpoint.parse(redisUri()));
  }

  @AfterParameterizedClassInvocation
  static void stopRedis() {
    redis.close();
    if (redisServer != null) {
      redisServer.close();
    }
  }

  private static String redisUri() {
    return redisServer == null ? servers.redisUri() : redisServer.uri();
  }

  @Test
  void whatTheIndexMissedIsReplayedAndAnIndexWithoutWatermarkIsRebuiltFromPostgres() throws Exception {
    String name = topology.name().toLowerCase(Locale.ROOT);
    SeqsyncConfig config = ConfigLoader.of(Map.of("kafka.partitions", "3", "projector.group-id", "index-catch-up-" + name,
        "kafka.topic-prefix", name + "."));
    Topics topics = Topics.from(config.kafka());
    TopicAdmin.ensure(KafkaConnection.plain(servers.bootstrapServers()), topics, (short) 1);
    String topic = topics.events().name();
    ConversationIndex index = new ConversationIndex(redis);
    try (Database database = servers.open(servers.postgres().createDatabase("index_catch_up_" + name));
        EventLog events = new EventLog(servers.bootstrapServers(), topics);
        RedisHealth health = new RedisHealth(redisUri())) {
      StoredProjection stored = new StoredProjection(database.jdbi(), topic);

      events.commit(messages(events, 30));
      try (Projector indexed = projector(config, topics, database, index, health)) {
        indexed.start();
        stored.awaitOffsets(events.nextOffsets(), TIMEOUT);
        await(() -> index.indexed(topic).equals(events.nextOffsets()));
      }
      assertThat(latestSeqs()).containsOnly(10L);

      // Committed to PostgreSQL, never told to an indexer.
      events.commit(messages(events, 30));
      try (Projector unindexed = new Projector(KafkaConnection.plain(servers.bootstrapServers()), topics, database, Announcer.NONE,
          new SimpleMeterRegistry(), config.projector())) {
        unindexed.start();
        stored.awaitOffsets(events.nextOffsets(), TIMEOUT);
      }
      assertThat(latestSeqs()).as("the index missed them").containsOnly(10L);
      assertThat(health.indexCurrent()).isTrue();

      try (Projector indexed = projector(config, topics, database, index, health)) {
        assertThat(health.indexCurrent()).as("behind until it has caught up").isFalse();
        indexed.start();
        await(() -> latestSeqs().stream().allMatch(seq -> seq == 20L));
        await(() -> index.indexed(topic).equals(events.nextOffsets()) && health.indexCurrent());

        redis.hset("ss:conv:{d:1:2}", "built", "1");
        redis.del("ss:indexed:{" + topic + "}");
      }
      try (Projector indexed = projector(config, topics, database, index, health)) {
        indexed.start();
        await(() -> !redis.hexists("ss:conv:{d:1:2}", "built") && index.indexed(topic).equals(events.nextOffsets()));
      }
      if (topology == RedisTopology.CLUSTER) {
        // A master that lost writes keeps no watermark to tell: the keys on the other masters are distrusted too.
        try (Projector indexed = projector(config, topics, database, index, health)) {
          indexed.start();
          await(() -> index.indexed(topic).equals(events.nextOffsets()) && health.indexCurrent());
          CONVERSATIONS.forEach(conv -> redis.hset("ss:conv:{" + conv + "}", "built", "1"));
          int restarted = redisServer.restartMasterNotHolding("ss:indexed:{" + topic + "}");
          List<String> elsewhere = CONVERSATIONS.stream().map(conv -> "ss:conv:{" + conv + "}")
              .filter(key -> !redisServer.servedBy(restarted, key)).toList();
          assertThat(elsewhere).as("keys on masters that did not restart").isNotEmpty();
          await(() -> elsewhere.stream().noneMatch(key -> redis.hexists(key, "built")) && health.indexCurrent());
          assertThat(index.indexed(topic)).as("the watermark survived").isNotEmpty();
        }
      }
    }
  }

  private Projector projector(SeqsyncConfig config, Topics topics, Database database, ConversationIndex index,
      RedisHealth health) {
    Projector projector = new Projector(KafkaConnection.plain(servers.bootstrapServers()), topics, database, Announcer.NONE,
        new SimpleMeterRegistry(), config.projector());
    projector.addCommitListener(new ConversationIndexer(database.jdbi(), index, health, KafkaConnection.plain(servers.bootstrapServers()),
        topics.events().name(), projector::assignedPartitions));
    return projector;
  }

  private static List<Event> messages(EventLog events, int count) {
    return IntStream.range(0, count).mapToObj(i -> events.nextMessage(CONVERSATIONS.get(i % CONVERSATIONS.size()))).toList();
  }

  private static List<Long> latestSeqs() {
    return CONVERSATIONS.stream().map(conv -> redis.hget("ss:conv:{" + conv + "}", "latestSeq"))
        .map(seq -> seq == null ? 0L : Long.parseLong(seq)).toList();
  }

  private static void await(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waited %s for a condition", TIMEOUT).isLessThan(deadline);
      Thread.sleep(50);
    }
  }
}
