package io.seqsync.config;

import java.util.Optional;

/**
 * Redis: {@code uri} empty means an embedded redis-server under {@code dataDir/redis} on
 * {@code embeddedPort}; else one server or a Redis Cluster ({@link RedisEndpoint} has the syntax).
 * {@code truststore}: the CAs a {@code rediss://} server's certificate is checked against, when not the JVM's.
 */
public record RedisSettings(Optional<String> uri, int embeddedPort, Optional<KeyStoreFile> truststore) {
  public RedisSettings {
    uri.ifPresent(RedisEndpoint::parse); // refused at start, not at the first connection
  }
}
