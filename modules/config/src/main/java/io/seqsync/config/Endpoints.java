package io.seqsync.config;

import java.util.EnumSet;
import java.util.Set;

/**
 * Where seqsync's servers answer: Kafka's bootstrap servers, PostgreSQL's JDBC URL and
 * credentials, Redis's URI. Each is the configured server's, or, where none is configured, an
 * embedded one's ({@link #resolve}); which ones that takes is {@link #unconfigured}. Immutable.
 */
public record Endpoints(String kafkaBootstrapServers, String postgresJdbcUrl, String postgresUser,
    String postgresPassword, String redisUri, String objectStoreUrl) {

  /** The object store's URL (the configured {@code s3.endpoint} or the embedded server's), when there is one. */
  public java.util.Optional<String> objectStore() {
    return java.util.Optional.ofNullable(objectStoreUrl);
  }

  /** The servers seqsync needs. */
  public enum Server { KAFKA, POSTGRES, REDIS }

  /** The servers {@code config} names no address for: an embedded one must stand in for each. */
  public static Set<Server> unconfigured(SeqsyncConfig config) {
    Set<Server> missing = EnumSet.noneOf(Server.class);
    if (config.kafka().bootstrapServers().isEmpty()) {
      missing.add(Server.KAFKA);
    }
    if (config.postgres().jdbcUrl().isEmpty()) {
      missing.add(Server.POSTGRES);
    }
    if (config.redis().uri().isEmpty()) {
      missing.add(Server.REDIS);
    }
    return missing;
  }

  /**
   * The configured servers' endpoints, and {@code embedded}'s for the {@link #unconfigured} ones
   * ({@code embedded}'s fields of configured servers are not read: they may be null).
   */
  public static Endpoints resolve(SeqsyncConfig config, Endpoints embedded) {
    PostgresSettings postgres = config.postgres();
    boolean embeddedPostgres = postgres.jdbcUrl().isEmpty();
    return new Endpoints(
        config.kafka().bootstrapServers().orElseGet(embedded::kafkaBootstrapServers),
        postgres.jdbcUrl().orElseGet(embedded::postgresJdbcUrl),
        embeddedPostgres ? embedded.postgresUser() : postgres.user(),
        embeddedPostgres ? embedded.postgresPassword() : postgres.password(),
        config.redis().uri().orElseGet(embedded::redisUri),
        config.objectStore().endpoint().orElseGet(embedded::objectStoreUrl));
  }
}
