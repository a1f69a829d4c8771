package io.seqsync.bench.peer;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntConsumer;

/**
 * The schedule both servers get: message {@code i} is due at {@code start + i / rate}, whatever
 * happened to the earlier ones, and its latency counts from then (no coordinated omission).
 * Message {@code i} goes from sender {@code i % conversations} (so the conversations take turns),
 * with the same text, of the same size, on both servers.
 */
final class Pacer {
  private static final long MIN_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
  private static final String PADDING = "x".repeat(100);

  private Pacer() {}

  static String text(Deliveries deliveries, int i) {
    return "message " + i + " of " + deliveries.tag + " " + PADDING;
  }

  /**
   * Runs {@code send} for every message of {@code deliveries} at its due time (recorded in it), at
   * {@code rate} per second; {@code atMessage} runs just before message {@code i} is due, for
   * {@code i} = {@code markAt} (the start of a measured window); returns the schedule's start (nanoTime).
   */
  static long run(Deliveries deliveries, int rate, int markAt, Runnable atMark, IntConsumer send) {
    long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20);
    for (int i = 0; i < deliveries.total; i++) {
      long due = start + (long) (i * 1e9 / rate);
      // No spinning (it would take a core from the servers), at most a wake-up a millisecond: the
      // messages due meanwhile go out together, late, and the lateness counts in their latency.
      for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
        LockSupport.parkNanos(Math.max(wait, MIN_PARK_NANOS));
      }
      if (i == markAt) {
        atMark.run();
      }
      deliveries.dueNanos[i] = due;
      send.accept(i);
    }
    return start;
  }
}
