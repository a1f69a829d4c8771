package io.seqsync.store.replica;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The highest seq per conversation that this instance has heard the projector announce as
 * committed on the primary, which is at least every seq a send's 200 of this instance carried
 * (it is noted before the waiting send is answered). Bounded: when full it forgets everything and
 * moves its {@link #horizon()} to now; a conversation it knows nothing of may have had a commit
 * before the horizon (before this instance started, or before the last reset), so a replica serves
 * it only if it has replayed everything the primary had at the horizon. Thread-safe.
 */
public final class CommittedSeqs {
  private final int capacity;
  private final LongSupplier nanoClock;
  private final ConcurrentHashMap<String, Long> seqs = new ConcurrentHashMap<>();
  private volatile long horizon;

  public CommittedSeqs(int capacity, LongSupplier nanoClock) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be positive: " + capacity);
    }
    this.capacity = capacity;
    this.nanoClock = nanoClock;
    this.horizon = nanoClock.getAsLong();
  }

  /** Notes that {@code convId} has seq {@code seq} committed on the primary. */
  public void committed(String convId, long seq) {
    if (seqs.size() >= capacity) {
      // The horizon moves first: a reader between the two lines sees a horizon that covers what is lost.
      horizon = nanoClock.getAsLong();
      seqs.clear();
    }
    seqs.merge(convId, seq, Math::max);
  }

  /** The highest seq announced for {@code convId} since the horizon, 0 when none. */
  public long seq(String convId) {
    return seqs.getOrDefault(convId, 0L);
  }

  /** Since when (System.nanoTime) this knows every announced commit. */
  public long horizon() {
    return horizon;
  }
}
