package io.seqsync.config;

import static io.seqsync.config.SeqsyncConfig.require;

import java.time.Duration;

/**
 * The hot and cold tiers of messages (R22): the hot table keeps {@code hotDays} days (UTC, today
 * included); the archive job runs every {@code interval} (zero: never) and moves older days to the
 * archive; an archive read gives up after {@code readBudget}.
 */
public record ArchiveSettings(int hotDays, Duration interval, Duration readBudget) {
  public ArchiveSettings {
    require(hotDays >= 1, "archive.hot-days must be at least 1");
    require(!interval.isNegative(), "archive.interval must not be negative");
    require(readBudget.toMillis() > 0, "archive.read-budget must be positive");
  }
}
