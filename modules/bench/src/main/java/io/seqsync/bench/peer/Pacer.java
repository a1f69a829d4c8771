package io.seqsync.bench.peer;

import io.seqsync.bench.OpenLoop;
import java.util.function.IntConsumer;

/**
 * The schedule both servers get: message {@code i} is due at {@code start + i / rate}, whatever
 * happened to the earlier ones, and its latency counts from then (no coordinated omission).
 * Message {@code i} goes from sender {@code i % conversations} (so the conversations take turns),
 * with the same text, of the same size, on both servers.
 */
final class Pacer {
  private static final String PADDING = "x".repeat(100);

  private Pacer() {}

  static String text(Deliveries deliveries, int i) {
    return "message " + i + " of " + deliveries.tag + " " + PADDING;
  }

  /**
   * Runs {@code send} for every message of {@code deliveries} at its due time (recorded in it), at
   * {@code rate} per second; {@code atMark} runs just before message {@code markAt} is due (the
   * start of a measured window); returns the schedule's start (nanoTime).
   */
  static long run(Deliveries deliveries, int rate, int markAt, Runnable atMark, IntConsumer send) {
    long start = System.nanoTime();
    OpenLoop.run(rate, 0, deliveries.total, (i, due) -> {
      if (i == markAt) {
        atMark.run();
      }
      deliveries.dueNanos[(int) i] = due;
      send.accept((int) i);
    });
    return start;
  }
}
