package io.seqsync.config;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Every setting of seqsync, typed: one record per group of settings, each in its own file and
 * checking its own values, and here what spans groups. Built by {@link ConfigLoader} from
 * environment variables and an optional properties file; an absent server address means "start
 * the embedded one" (see the localstack module).
 */
public record SeqsyncConfig(
    Path dataDir, Optional<String> instanceId, KafkaSettings kafka, PostgresSettings postgres, RedisSettings redis,
    SequencerSettings sequencer, HttpSettings http, AuthSettings auth, ProjectorSettings projector, FetchSettings fetch,
    DeliverySettings delivery, ArchiveSettings archive, HealthSettings health, LimitsSettings limits,
    GroupsSettings groups, PresenceSettings presence, Integrations integrations, ObjectStoreSettings objectStore,
    NotifySettings notifications, Erasure erasure) {

  public SeqsyncConfig {
    // Each lane holds at most its concurrency in connections: together they leave the projector,
    // sends and the rest at least one, and paging can never take first screens' connections.
    require(fetch.firstScreen().concurrency() + fetch.paging().concurrency() < postgres.poolSize(),
        "fetch.first-screen.concurrency + fetch.paging.concurrency must be below postgres.pool-size ("
            + postgres.poolSize() + ")");
    postgres.shards().requireCovers(kafka.eventPartitions());
  }

  /**
   * This configuration with {@code id} as the instance's name in its consumer groups, unless one is
   * configured, and as the projector's too, unless that one is (see {@link InstanceId}).
   */
  public SeqsyncConfig withInstanceId(String id) {
    String instance = instanceId.orElse(id);
    ProjectorSettings named = new ProjectorSettings(projector.groupId(),
        Optional.of(projector.instanceId().orElse(instance)), projector.maxPollRecords(),
        projector.sessionTimeout(), projector.retryBackoff());
    return new SeqsyncConfig(dataDir, Optional.of(instance), kafka, postgres, redis, sequencer, http, auth, named,
        fetch, delivery, archive, health, limits, groups, presence, integrations, objectStore, notifications,
        erasure);
  }

  /** A host name or address that only this machine reaches: localhost, 127.0.0.0/8 or ::1. */
  static boolean isLoopback(String host) {
    String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    return bare.equalsIgnoreCase("localhost") || bare.matches("127(\\.\\d{1,3}){3}") || bare.equals("::1");
  }

  /** True when no external service is configured for any of Kafka, PostgreSQL and Redis. */
  public boolean fullyEmbedded() {
    return kafka.bootstrapServers().isEmpty() && postgres.jdbcUrl().isEmpty() && redis.uri().isEmpty();
  }

  static void require(boolean condition, String message) {
    if (!condition) {
      throw new ConfigException(message);
    }
  }
}
