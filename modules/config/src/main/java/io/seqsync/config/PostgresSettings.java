package io.seqsync.config;

import static io.seqsync.config.SeqsyncConfig.require;

import java.time.Duration;
import java.util.Optional;

/**
 * PostgreSQL: {@code jdbcUrl} empty means an embedded server under {@code dataDir/postgres} on
 * {@code embeddedPort}. What users drive (fetches, the handshake, the list, activation, the
 * archive, ops reads, membership checks) uses a pool of {@code poolSize} connections whose every
 * statement is cancelled after {@code statementTimeout}; the projectors and background jobs use
 * one of {@code backgroundPoolSize} without a timeout, so a user-facing limit never cuts a write.
 */
public record PostgresSettings(Optional<String> jdbcUrl, String user, String password, int embeddedPort, int poolSize,
    int backgroundPoolSize, Duration statementTimeout) {
  public PostgresSettings {
    require(poolSize > 0, "postgres.pool-size must be positive");
    require(backgroundPoolSize > 0, "postgres.background-pool-size must be positive");
    require(statementTimeout.toMillis() > 0, "postgres.statement-timeout must be positive");
  }
}
