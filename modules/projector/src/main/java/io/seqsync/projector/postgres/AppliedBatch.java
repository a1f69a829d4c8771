package io.seqsync.projector.postgres;

import io.seqsync.events.model.StoredOutcome;
import java.util.List;

/**
 * What {@link ProjectionWriter#apply} did with a batch: the outcome of every event that has one,
 * in event order, and the seq anomalies it met. Returned rather than reported on the way, so that
 * the caller announces and counts only once the transaction has committed. Immutable.
 */
public record AppliedBatch(List<StoredOutcome> outcomes, List<ProjectionAnomaly> anomalies) {
  public AppliedBatch {
    outcomes = List.copyOf(outcomes);
    anomalies = List.copyOf(anomalies);
  }

  public long count(ProjectionAnomaly.Kind kind) {
    return anomalies.stream().filter(anomaly -> anomaly.kind() == kind).count();
  }
}
