package io.seqsync.projector.postgres;

/**
 * The stored offsets of a partition are not where this projector left them: another instance has
 * projected it meanwhile (a rebalance while this one stalled). The transaction must roll back and
 * the projector resume from the stored offsets.
 */
public final class ProjectionOffsetConflict extends RuntimeException {
  public ProjectionOffsetConflict(String message) {
    super(message);
  }
}
