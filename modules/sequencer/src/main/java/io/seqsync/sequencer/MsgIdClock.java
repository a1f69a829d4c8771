package io.seqsync.sequencer;

import java.util.function.LongConsumer;

/**
 * A partition's msgId generator together with what it persists: not every issued id (a state
 * store write per message), but a bound ahead of them, renewed once the ids pass it, so about one
 * write per {@link #LEASE_MS} of ids. The bound is written in the same transaction as the events
 * whose ids it covers, so every committed id lies at or below the committed bound, and a restart
 * that continues after the bound never reissues one (at worst it skips up to a lease of ids, which
 * only moves the time in later ids forward by that much until the clock catches up). Not
 * thread-safe: one per task.
 */
final class MsgIdClock {
  static final long LEASE_MS = 1_000;

  private final MsgIdGenerator generator;
  private final LongConsumer persistBound;
  private long bound;

  /**
   * Continues after {@code persistedBound} (0 when the partition never issued an id), handing each
   * new bound to {@code persistBound} before any id above the previous one is returned.
   */
  MsgIdClock(int partition, long persistedBound, LongConsumer persistBound) {
    this.generator = new MsgIdGenerator(partition, persistedBound);
    this.persistBound = persistBound;
    this.bound = persistedBound;
  }

  long next(long nowMillis) {
    long id = generator.next(nowMillis);
    if (id > bound) {
      bound = MsgIdGenerator.plusMillis(id, LEASE_MS);
      persistBound.accept(bound);
    }
    return id;
  }
}
