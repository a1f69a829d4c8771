package io.seqsync.ingress.api;

import io.seqsync.ingress.auth.Caller;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * A token bucket per device ({@link Caller}), kept as its theoretical arrival time (GCRA): one
 * {@code long} a device, updated atomically in the map, no lock of its own. A request is admitted
 * while the bucket holds a token: at most {@code burst} at once, refilled at {@code ratePerSecond}.
 * A full bucket is the same as none, so buckets that refilled are dropped by a sweep at most once
 * per {@link #SWEEP_INTERVAL_NANOS}: memory holds only the devices that fetched within the last
 * {@code burst / ratePerSecond} seconds plus one sweep interval. Thread-safe.
 */
final class DeviceRateLimiter {
  static final long SWEEP_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);

  private final long interval;
  private final long tolerance;
  private final LongSupplier nanoClock;
  // The time at which a device's bucket is full again; a request takes one interval from it.
  private final ConcurrentHashMap<Caller, Long> fullAt = new ConcurrentHashMap<>();
  private final AtomicLong nextSweep;

  /** {@code nanoClock}: a monotonic clock in nanoseconds, {@link System#nanoTime} but in tests. */
  DeviceRateLimiter(int ratePerSecond, int burst, LongSupplier nanoClock) {
    if (ratePerSecond <= 0 || burst <= 0) {
      throw new IllegalArgumentException("rate and burst must be positive");
    }
    this.interval = TimeUnit.SECONDS.toNanos(1) / ratePerSecond;
    this.tolerance = (burst - 1) * interval;
    this.nanoClock = nanoClock;
    this.nextSweep = new AtomicLong(nanoClock.getAsLong() + SWEEP_INTERVAL_NANOS);
  }

  /** Takes a token of the caller's bucket: 0 when admitted, else the nanoseconds until one is there. */
  long tryAcquire(Caller caller) {
    long now = nanoClock.getAsLong();
    sweepIfDue(now);
    long[] wait = {0};
    fullAt.compute(caller, (device, full) -> {
      long start = full == null || full - now < 0 ? now : full;
      if (start - now > tolerance) {
        wait[0] = start - now - tolerance;
        return full;
      }
      return start + interval;
    });
    return wait[0];
  }

  /** How many devices have a bucket that is not full (those that fetched recently). */
  int size() {
    return fullAt.size();
  }

  private void sweepIfDue(long now) {
    long due = nextSweep.get();
    if (now - due >= 0 && nextSweep.compareAndSet(due, now + SWEEP_INTERVAL_NANOS)) {
      // Removes an entry only if it still holds the value tested: a concurrent take wins.
      fullAt.values().removeIf(full -> full - now <= 0);
    }
  }
}
