package io.seqsync.store.replica;

import java.util.concurrent.atomic.LongAdder;

/**
 * Where routed reads went, for the metrics: to a replica, or to the primary because no replica was
 * fit (none configured, down, or not replayed far enough), because the replica's answer was older
 * than the request needed, or because the replica failed. Thread-safe.
 */
public final class ReadCounts {
  /** Why a read went where it went. */
  public enum Outcome { REPLICA, PRIMARY_NO_REPLICA, PRIMARY_STALE, PRIMARY_REPLICA_FAILED }

  private final LongAdder[] counts = new LongAdder[Outcome.values().length];

  public ReadCounts() {
    for (int i = 0; i < counts.length; i++) {
      counts[i] = new LongAdder();
    }
  }

  void add(Outcome outcome) {
    counts[outcome.ordinal()].increment();
  }

  public long count(Outcome outcome) {
    return counts[outcome.ordinal()].sum();
  }
}
