package io.seqsync.config;

import static io.seqsync.config.SeqsyncConfig.require;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * PostgreSQL: {@code jdbcUrl} empty means an embedded server under {@code dataDir/postgres} on
 * {@code embeddedPort}. What users drive (fetches, the handshake, the list, activation, the
 * archive, ops reads, membership checks) uses a pool of {@code poolSize} connections whose every
 * statement is cancelled after {@code statementTimeout}; the projectors and background jobs use
 * one of {@code backgroundPoolSize} without a timeout, so a user-facing limit never cuts a write.
 * {@code replicaJdbcUrls}: streaming replicas of that primary (same user and password) that pages
 * and the handshake read from when they have replayed what the request needs (docs/design.md,
 * "Read replicas"); empty: everything reads the primary.
 * {@code shards}: the primaries by partition of the events topic, each with its own replicas (none:
 * {@code jdbcUrl}'s for all; with shards, {@code replicaJdbcUrls} is refused: each shard names its own). {@code embeddedFsync}: whether the embedded
 * server flushes its WAL to disk (off: it survives a crash of its process, not of the machine;
 * on: what a production server does, for measurements).
 */
public record PostgresSettings(Optional<String> jdbcUrl, String user, String password, int embeddedPort, int poolSize,
    int backgroundPoolSize, Duration statementTimeout, List<String> replicaJdbcUrls, PostgresShards shards,
    boolean embeddedFsync) {
  public PostgresSettings {
    replicaJdbcUrls = List.copyOf(replicaJdbcUrls);
    require(replicaJdbcUrls.stream().allMatch(url -> url.startsWith("jdbc:postgresql:")),
        "postgres.replica-jdbc-urls must be jdbc:postgresql: URLs, comma-separated");
    // With shards, the home shard (partition 0's) is the one PostgreSQL every single-server path uses.
    if (shards.configured()) {
      require(replicaJdbcUrls.isEmpty(), "postgres.replica-jdbc-urls are replicas of one primary: not with postgres.shards,"
          + " whose entries name each shard's replicas after its primary (0-5=jdbc:postgresql://h1/db|jdbc:postgresql://h1r/db)");
      require(jdbcUrl.isEmpty() || jdbcUrl.equals(shards.home()),
          "postgres.jdbc-url must be absent or be the shard of partition 0 when postgres.shards is set");
      jdbcUrl = shards.home();
    }
    require(poolSize > 0, "postgres.pool-size must be positive");
    require(backgroundPoolSize > 0, "postgres.background-pool-size must be positive");
    require(statementTimeout.toMillis() > 0, "postgres.statement-timeout must be positive");
  }

  /** The streaming replicas of the primary at {@code primaryJdbcUrl}: its shard's, else {@code replicaJdbcUrls}. */
  public List<String> replicasOf(String primaryJdbcUrl) {
    return shards.configured() ? shards.replicasOf(primaryJdbcUrl) : replicaJdbcUrls;
  }

  /** Whether any primary has a replica to read from. */
  public boolean hasReplicas() {
    return !replicaJdbcUrls.isEmpty() || shards.ranges().stream().anyMatch(range -> !range.replicaUrls().isEmpty());
  }
}
