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
 */
public record PostgresSettings(Optional<String> jdbcUrl, String user, String password, int embeddedPort, int poolSize,
    int backgroundPoolSize, Duration statementTimeout, List<String> replicaJdbcUrls) {
  public PostgresSettings {
    replicaJdbcUrls = List.copyOf(replicaJdbcUrls);
    require(replicaJdbcUrls.stream().allMatch(url -> url.startsWith("jdbc:postgresql:")),
        "postgres.replica-jdbc-urls must be jdbc:postgresql: URLs, comma-separated");
    require(poolSize > 0, "postgres.pool-size must be positive");
    require(backgroundPoolSize > 0, "postgres.background-pool-size must be positive");
    require(statementTimeout.toMillis() > 0, "postgres.statement-timeout must be positive");
  }
}
