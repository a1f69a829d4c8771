package io.seqsync.config;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Crypto-shredding (docs/design.md, "Erasure"). {@code encryptContent}: whether the ingress seals
 * content before it reaches Kafka (off only to measure what sealing costs); {@code masterKey}: the
 * base64 AES-256 key that wraps the content keys (empty: a key file generated under the data
 * directory); {@code oldMasterKeys}: keys rows may still be wrapped by while a rotation runs;
 * {@code retentionDays}: content older than this many days is erased (0: kept); the retention job
 * runs every {@code retentionInterval}.
 */
public record Erasure(boolean encryptContent, Optional<String> masterKey, List<String> oldMasterKeys, int retentionDays,
    Duration retentionInterval) {
  public Erasure {
    oldMasterKeys = List.copyOf(oldMasterKeys);
    if (retentionDays < 0) {
      throw new ConfigException("retention.days must not be negative");
    }
    if (retentionInterval.isNegative() || retentionInterval.isZero()) {
      throw new ConfigException("retention.interval must be positive");
    }
  }

  /** The defaults: content sealed, the generated key file, everything kept. */
  public static Erasure defaults() {
    return new Erasure(true, Optional.empty(), List.of(), 0, Duration.ofHours(1));
  }
}
