package io.seqsync.config;

import static io.seqsync.config.SeqsyncConfig.require;

/**
 * The health answers ({@code /health/ready}): the projection counts as degraded while it is more
 * than {@code projectorLagThreshold} events behind the events topic.
 */
public record HealthSettings(long projectorLagThreshold) {
  public HealthSettings {
    require(projectorLagThreshold >= 0, "health.projector-lag-threshold must not be negative");
  }
}
