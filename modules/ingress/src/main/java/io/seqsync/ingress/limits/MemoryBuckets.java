package io.seqsync.ingress.limits;

import io.seqsync.redis.RedisLimits.Bucket;
import io.seqsync.redis.RedisLimits.Verdict;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * This instance's token buckets, the same GCRA as Redis's script ({@code rate_limit.lua}): what
 * decides while Redis does not answer, and what limits a socket's frames (a socket lives on one
 * instance). Several buckets of one user are taken together or not at all, under a lock of that
 * user's stripe. Buckets that refilled are swept at most every {@link #SWEEP_INTERVAL_MICROS}.
 * Thread-safe.
 */
final class MemoryBuckets {
  static final long SWEEP_INTERVAL_MICROS = TimeUnit.SECONDS.toMicros(10);
  private static final int STRIPES = 64;

  // Key to the time (µs) at which the bucket is full again.
  private final ConcurrentHashMap<String, Long> fullAt = new ConcurrentHashMap<>();
  private final Object[] stripes = new Object[STRIPES];
  private final AtomicLong nextSweep = new AtomicLong(Long.MIN_VALUE);

  MemoryBuckets() {
    for (int i = 0; i < STRIPES; i++) {
      stripes[i] = new Object();
    }
  }

  /** Takes a token of every bucket (all of one user) at {@code nowMicros}, or of none. */
  Verdict take(List<Bucket> buckets, long nowMicros) {
    sweepIfDue(nowMicros);
    synchronized (stripes[Math.floorMod(Long.hashCode(buckets.get(0).userId()), STRIPES)]) {
      long wait = 0;
      int which = -1;
      long[] starts = new long[buckets.size()];
      for (int i = 0; i < starts.length; i++) {
        Bucket bucket = buckets.get(i);
        Long full = fullAt.get(key(bucket));
        starts[i] = full == null || full < nowMicros ? nowMicros : full;
        if (starts[i] - nowMicros - bucket.toleranceMicros() > wait) {
          wait = starts[i] - nowMicros - bucket.toleranceMicros();
          which = i;
        }
      }
      if (wait > 0) {
        return new Verdict(wait, which);
      }
      for (int i = 0; i < starts.length; i++) {
        fullAt.put(key(buckets.get(i)), starts[i] + buckets.get(i).intervalMicros());
      }
      return Verdict.ADMITTED;
    }
  }

  /** Forgets a bucket (a socket's, when it closes). */
  void forget(Bucket bucket) {
    fullAt.remove(key(bucket));
  }

  /** Buckets that are not full. */
  int size() {
    return fullAt.size();
  }

  private static String key(Bucket bucket) {
    return bucket.userId() + ":" + bucket.name();
  }

  private void sweepIfDue(long now) {
    long due = nextSweep.get();
    if (due == Long.MIN_VALUE) {
      nextSweep.compareAndSet(due, now + SWEEP_INTERVAL_MICROS);
    } else if (now >= due && nextSweep.compareAndSet(due, now + SWEEP_INTERVAL_MICROS)) {
      fullAt.values().removeIf(full -> full <= now);
    }
  }
}
