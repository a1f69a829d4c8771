package io.seqsync.app;

import io.seqsync.consumers.ProjectionLag;
import io.seqsync.ingress.health.DependencyState;
import io.seqsync.ingress.health.HealthProbe;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How far PostgreSQL's projection is behind the events topic, over all instances (see
 * {@link ProjectionLag}): degraded above the threshold (health.projector-lag-threshold), since
 * sends then answer late and fetches miss recent messages.
 */
final class ProjectionLagProbe implements HealthProbe {
  private static final Duration TIMEOUT = Duration.ofSeconds(2);

  private final ProjectionLag lag;
  private final long threshold;

  ProjectionLagProbe(ProjectionLag lag, long threshold) {
    this.lag = lag;
    this.threshold = threshold;
  }

  @Override
  public String name() {
    return "projectorLag";
  }

  @Override
  public boolean required() {
    return false;
  }

  @Override
  public DependencyState check() {
    ProjectionLag.Snapshot snapshot = lag.measure(TIMEOUT);
    Map<String, Object> detail = new LinkedHashMap<>();
    detail.put("total", snapshot.total());
    detail.put("threshold", threshold);
    snapshot.worst().ifPresent(worst -> detail.put("worst", worst));
    detail.put("partitions", snapshot.partitions());
    return snapshot.total() > threshold
        ? DependencyState.degraded("the projection is " + snapshot.total() + " events behind the events topic", detail)
        : DependencyState.up(detail);
  }
}
