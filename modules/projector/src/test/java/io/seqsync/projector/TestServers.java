package io.seqsync.projector;

import io.seqsync.config.ConfigLoader;
import io.seqsync.config.KafkaConnection;
import io.seqsync.consumers.TopicAdmin;
import io.seqsync.events.Topics;
import io.seqsync.localstack.EmbeddedKafka;
import io.seqsync.localstack.LocalPostgres;
import io.seqsync.localstack.LocalRedis;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Real Kafka, PostgreSQL and Redis for one test class, embedded on free ports under {@code dir},
 * started in parallel since each takes seconds. Thread-safe once started.
 */
final class TestServers implements AutoCloseable {
  private final EmbeddedKafka kafka;
  private final LocalPostgres postgres;
  private final LocalRedis redis;

  private TestServers(EmbeddedKafka kafka, LocalPostgres postgres, LocalRedis redis) {
    this.kafka = kafka;
    this.postgres = postgres;
    this.redis = redis;
  }

  static TestServers start(Path dir) {
    CompletableFuture<EmbeddedKafka> kafka = CompletableFuture.supplyAsync(() -> EmbeddedKafka.start(dir.resolve("kafka"), 0));
    // PostgreSQL, then Redis, not both at once: see LocalStack on child processes started together.
    LocalPostgres postgres = LocalPostgres.start(dir.resolve("postgres"), 0);
    LocalRedis redis = LocalRedis.start(dir.resolve("redis"), 0);
    return new TestServers(kafka.join(), postgres, redis);
  }

  String bootstrapServers() {
    return kafka.bootstrapServers();
  }

  LocalPostgres postgres() {
    return postgres;
  }

  String redisUri() {
    return redis.uri();
  }

  /** The topics, with {@code partitions} partitions each, created on the broker. */
  Topics topics(int partitions) {
    Topics topics = Topics.from(ConfigLoader.of(Map.of("kafka.partitions", String.valueOf(partitions))).kafka());
    TopicAdmin.ensure(KafkaConnection.plain(bootstrapServers()), topics, (short) 1);
    return topics;
  }

  /**
   * The environment of a {@link ProjectorMain} child on these servers, with {@code partitions} per
   * topic and the database at {@code jdbcUrl}; static membership as {@code instanceId}, so a
   * restarted child takes its partitions back without waiting out the dead one's session.
   */
  Map<String, String> projectorEnvironment(int partitions, String jdbcUrl, Path dataDir, String instanceId) {
    return Map.of(
        "SEQSYNC_KAFKA_BOOTSTRAP_SERVERS", bootstrapServers(),
        "SEQSYNC_KAFKA_PARTITIONS", String.valueOf(partitions),
        "SEQSYNC_POSTGRES_JDBC_URL", jdbcUrl,
        "SEQSYNC_POSTGRES_USER", postgres.user(),
        "SEQSYNC_DATA_DIR", dataDir.toString(),
        "SEQSYNC_PROJECTOR_INSTANCE_ID", instanceId,
        "SEQSYNC_PROJECTOR_SESSION_TIMEOUT", "6s");
  }

  @Override
  public void close() {
    redis.close();
    postgres.close();
    kafka.close();
  }
}
