package io.seqsync.projector;

import io.seqsync.config.ConfigLoader;
import io.seqsync.config.KafkaConnection;
import io.seqsync.consumers.TopicAdmin;
import io.seqsync.events.Topics;
import io.seqsync.localstack.ChildJvm;
import io.seqsync.localstack.EmbeddedKafka;
import io.seqsync.localstack.LocalPostgres;
import io.seqsync.localstack.LocalRedis;
import io.seqsync.store.Database;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Real Kafka, PostgreSQL and Redis for one test class, embedded on free ports under {@code dir},
 * started in parallel since each takes seconds ({@link #start}). Thread-safe once started.
 */
record TestServers(Path dir, EmbeddedKafka kafka, LocalPostgres postgres, LocalRedis redis) implements AutoCloseable {
  static TestServers start(Path dir) {
    CompletableFuture<EmbeddedKafka> kafka = CompletableFuture.supplyAsync(() -> EmbeddedKafka.start(dir.resolve("kafka"), 0));
    // PostgreSQL, then Redis, not both at once: see LocalStack on child processes started together.
    LocalPostgres postgres = LocalPostgres.start(dir.resolve("postgres"), 0);
    LocalRedis redis = LocalRedis.start(dir.resolve("redis"), 0);
    return new TestServers(dir, kafka.join(), postgres, redis);
  }

  String bootstrapServers() {
    return kafka.bootstrapServers();
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

  /** A pool of two connections to the database at {@code jdbcUrl} on this PostgreSQL. */
  Database open(String jdbcUrl) {
    return Database.open(jdbcUrl, postgres.user(), postgres.password(), 2);
  }

  /**
   * A {@link ProjectorMain} child on these servers, not started: {@code partitions} per topic, the
   * database at {@code jdbcUrl}, ready once its log shows {@code readyText}. Static membership as
   * {@code instanceId}, so a restarted child takes its partitions back without waiting out the dead
   * one's session. Its log is {@link #childLog}.
   */
  ChildJvm projectorChild(String instanceId, int partitions, String jdbcUrl, Path childLog, String readyText) {
    Map<String, String> environment = Map.of(
        "SEQSYNC_KAFKA_BOOTSTRAP_SERVERS", bootstrapServers(),
        "SEQSYNC_KAFKA_PARTITIONS", String.valueOf(partitions),
        "SEQSYNC_POSTGRES_JDBC_URL", jdbcUrl,
        "SEQSYNC_POSTGRES_USER", postgres.user(),
        "SEQSYNC_DATA_DIR", dir.resolve(instanceId).toString(),
        "SEQSYNC_PROJECTOR_INSTANCE_ID", instanceId,
        "SEQSYNC_PROJECTOR_SESSION_TIMEOUT", "6s");
    return new ChildJvm(ProjectorMain.class, environment, childLog, readyText);
  }

  /** A child's log for {@code testClass}, emptied: under target/, not the temp dir, kept for a look after a failure. */
  static Path childLog(Class<?> testClass) throws IOException {
    Path log = Path.of("target", testClass.getSimpleName() + "-child.log");
    Files.deleteIfExists(log);
    return log;
  }

  @Override
  public void close() {
    redis.close();
    postgres.close();
    kafka.close();
  }
}
