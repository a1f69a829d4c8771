package io.seqsync.sequencer;

/**
 * 64-bit, time-ordered, unique message ids: 41 bits of milliseconds since 2024-01-01, 10 bits of
 * partition (the sequencer task that owns the conversation) and a 12-bit counter within the
 * millisecond. Ids never repeat for a partition: the generator never goes below the last id it
 * issued or the bound it was restarted from, which {@link MsgIdClock} persists in a state store (so a
 * restart, or a clock stepping back, cannot reissue one). Display order never uses msgId (R2): seq does. Not thread-safe: one per task.
 */
final class MsgIdGenerator {
  static final long EPOCH_MS = 1_704_067_200_000L;
  private static final int PARTITION_BITS = 10;
  private static final int COUNTER_BITS = 12;
  private static final long MAX_COUNTER = (1L << COUNTER_BITS) - 1;
  static final int MAX_PARTITIONS = 1 << PARTITION_BITS;

  private final long partition;
  private long lastMillis;
  private long counter;

  /** Continues after {@code lastIssued} (0 when this partition never issued an id), or any bound above it. */
  MsgIdGenerator(int partition, long lastIssued) {
    if (partition < 0 || partition >= MAX_PARTITIONS) {
      throw new IllegalArgumentException("partition " + partition + " does not fit " + PARTITION_BITS + " bits");
    }
    this.partition = partition;
    this.lastMillis = lastIssued >>> (PARTITION_BITS + COUNTER_BITS);
    this.counter = lastIssued & MAX_COUNTER;
  }

  long next(long nowMillis) {
    long millis = nowMillis - EPOCH_MS;
    if (millis > lastMillis) {
      lastMillis = millis;
      counter = 0;
    } else if (++counter > MAX_COUNTER) {
      // Out of ids for this millisecond (or the clock stepped back): borrow the next one.
      lastMillis++;
      counter = 0;
    }
    return (lastMillis << (PARTITION_BITS + COUNTER_BITS)) | (partition << COUNTER_BITS) | counter;
  }

  /** The id {@code millis} later than {@code msgId}: same partition and counter. */
  static long plusMillis(long msgId, long millis) {
    return msgId + (millis << (PARTITION_BITS + COUNTER_BITS));
  }

  /** Milliseconds since the epoch encoded in an id. */
  static long timeOf(long msgId) {
    return (msgId >>> (PARTITION_BITS + COUNTER_BITS)) + EPOCH_MS;
  }
}
