package io.seqsync.projector;

import io.seqsync.localstack.EmbeddedKafka;
import io.seqsync.localstack.LocalPostgres;
import io.seqsync.localstack.LocalRedis;
import java.net.URI;
import java.nio.file.Path;
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
    CompletableFuture<LocalPostgres> postgres =
        CompletableFuture.supplyAsync(() -> LocalPostgres.start(dir.resolve("postgres"), 0));
    LocalRedis redis = LocalRedis.start(dir.resolve("redis"), 0);
    return new TestServers(kafka.join(), postgres.join(), redis);
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

  String redisHost() {
    return URI.create(redis.uri()).getHost();
  }

  int redisPort() {
    return URI.create(redis.uri()).getPort();
  }

  @Override
  public void close() {
    redis.close();
    postgres.close();
    kafka.close();
  }
}
