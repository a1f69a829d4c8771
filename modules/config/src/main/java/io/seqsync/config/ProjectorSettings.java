package io.seqsync.config;

import static io.seqsync.config.SeqsyncConfig.require;

import java.time.Duration;
import java.util.Optional;

/**
 * The PostgreSQL projector: a consumer group reading the events topic. {@code instanceId} turns on
 * static membership, so a restarted instance gets its partitions back at once rather than after
 * {@code sessionTimeout}; it must differ between instances running at the same time. The app
 * sets it to the instance's id ({@link SeqsyncConfig#withInstanceId}) when it is not configured.
 */
public record ProjectorSettings(
    String groupId, Optional<String> instanceId, int maxPollRecords, Duration sessionTimeout, Duration retryBackoff) {
  public ProjectorSettings {
    require(!groupId.isBlank(), "projector.group-id must not be blank");
    require(maxPollRecords > 0, "projector.max-poll-records must be positive");
    require(!retryBackoff.isNegative(), "projector.retry-backoff must not be negative");
  }
}
