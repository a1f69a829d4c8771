package io.seqsync.projector;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.seqsync.projector.postgres.AppliedBatch;
import io.seqsync.projector.postgres.ProjectionAnomaly;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The projector's meters. Dotted Micrometer names; a Prometheus registry exposes them as
 * {@code seqsync_projector_seq_anomalies_total{kind}}, {@code seqsync_projector_undecodable_total},
 * {@code seqsync_projector_events_projected_total}, {@code seqsync_projector_batch_size},
 * {@code seqsync_projector_batch_latency_seconds}, {@code seqsync_projector_batch_failures_total} and
 * {@code seqsync_projector_listener_latency_seconds{listener}} (the Redis index and push fan-out after a commit). Counted only after a commit, so a retried
 * batch is not counted twice. Thread-safe, as Micrometer's meters are.
 */
final class ProjectorMetrics {
  private final DistributionSummary batchSize;
  private final Timer batchLatency;
  private final Counter eventsProjected;
  private final Counter undecodable;
  private final Map<ProjectionAnomaly.Kind, Counter> seqAnomalies = new EnumMap<>(ProjectionAnomaly.Kind.class);
  private final Counter batchFailures;
  private final MeterRegistry registry;

  ProjectorMetrics(MeterRegistry registry) {
    this.registry = registry;
    batchSize = DistributionSummary.builder("seqsync.projector.batch.size")
        .description("records per committed batch").register(registry);
    batchLatency = Timer.builder("seqsync.projector.batch.latency")
        .description("from poll to PostgreSQL commit, per batch").register(registry);
    eventsProjected = Counter.builder("seqsync.projector.events.projected")
        .description("events committed to PostgreSQL").register(registry);
    undecodable = Counter.builder("seqsync.projector.undecodable")
        .description("records skipped because they could not be decoded").register(registry);
    for (ProjectionAnomaly.Kind kind : ProjectionAnomaly.Kind.values()) {
      seqAnomalies.put(kind, Counter.builder("seqsync.projector.seq.anomalies").tag("kind", kind.label())
          .description("seq steps other than +1 (R25)").register(registry));
    }
    batchFailures = Counter.builder("seqsync.projector.batch.failures")
        .description("batches rolled back and retried from the stored offsets").register(registry);
  }

  void committed(int records, DecodedBatch batch, AppliedBatch result, long elapsedNanos) {
    batchSize.record(records);
    batchLatency.record(elapsedNanos, TimeUnit.NANOSECONDS);
    eventsProjected.increment(batch.events().size());
    undecodable.increment(batch.undecodable());
    seqAnomalies.forEach((kind, counter) -> counter.increment(result.count(kind)));
  }

  void batchFailed() {
    batchFailures.increment();
  }

  void listenerRan(CommitListener listener, long elapsedNanos) {
    Timer.builder("seqsync.projector.listener.latency").tag("listener", listener.getClass().getSimpleName())
        .description("time a commit listener took for one committed batch").register(registry)
        .record(elapsedNanos, TimeUnit.NANOSECONDS);
  }
}
