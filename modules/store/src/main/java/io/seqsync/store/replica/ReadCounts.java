package io.seqsync.store.replica;

import java.util.concurrent.atomic.LongAdder;

/**
 * Where routed reads went, by shard, for the metrics: to a replica, or to the primary because no
 * replica was fit (none configured, down, or not replayed far enough), because the replica's answer
 * was older than the request needed, or because the replica failed. A read spanning shards (the
 * handshake) counts once in each. Thread-safe.
 */
public final class ReadCounts {
  /** Why a read went where it went. */
  public enum Outcome { REPLICA, PRIMARY_NO_REPLICA, PRIMARY_STALE, PRIMARY_REPLICA_FAILED }

  private final LongAdder[][] counts;

  public ReadCounts(int shards) {
    counts = new LongAdder[shards][Outcome.values().length];
    for (LongAdder[] shard : counts) {
      for (int i = 0; i < shard.length; i++) {
        shard[i] = new LongAdder();
      }
    }
  }

  void add(int shard, Outcome outcome) {
    counts[shard][outcome.ordinal()].increment();
  }

  /** The reads of {@code shard} that went as {@code outcome} says. */
  public long count(int shard, Outcome outcome) {
    return counts[shard][outcome.ordinal()].sum();
  }

  /** The reads of every shard that went as {@code outcome} says. */
  public long count(Outcome outcome) {
    long sum = 0;
    for (int shard = 0; shard < counts.length; shard++) {
      sum += count(shard, outcome);
    }
    return sum;
  }

  public int shards() {
    return counts.length;
  }
}
