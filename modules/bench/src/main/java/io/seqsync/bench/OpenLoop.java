package io.seqsync.bench;

import java.util.concurrent.locks.LockSupport;

/**
 * The one pacer of the benchmarks: request {@code i} is due at {@code start + i / rate}, whatever
 * happened to the earlier ones, and its latency counts from then, so a slow server is not hidden
 * by a generator that waits for it (no coordinated omission).
 */
public final class OpenLoop {
  /** Called with each request's index and due time (nanoTime); must not block for long. */
  @FunctionalInterface
  public interface Due {
    void send(long index, long dueNanos);
  }

  private OpenLoop() {}

  /** Calls {@code due} {@code rate} times a second for {@code seconds} (or {@code count} times if positive). */
  public static long run(double rate, double seconds, long count, Due due) {
    long start = System.nanoTime();
    long total = count > 0 ? count : (long) (rate * seconds);
    for (long i = 0; i < total; i++) {
      long at = start + (long) (i * 1e9 / rate);
      for (long wait = at - System.nanoTime(); wait > 0; wait = at - System.nanoTime()) {
        LockSupport.parkNanos(wait);
      }
      due.send(i, at);
    }
    return total;
  }
}
