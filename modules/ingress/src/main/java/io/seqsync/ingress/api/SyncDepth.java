package io.seqsync.ingress.api;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.seqsync.ingress.auth.Caller;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Paging depth (R25): how many forward pages a device took to catch up one conversation, as a
 * histogram ({@code seqsync_fetch_sync_pages}; healthy: most catch-ups end within two pages). A
 * catch-up starts with a page from the device's cursor, or from an {@code after} that does not
 * continue one; each page whose {@code after} is the previous page's {@code nextAfter} continues
 * it; the first page without {@code hasMore} ends it and records its depth. Range fetches (with
 * {@code until}) fill gaps and backward pages browse history: neither counts. A catch-up left
 * unfinished is forgotten once {@link #ABANDONED} has passed and the open ones reach
 * {@link #MAX_OPEN}. Thread-safe.
 */
public final class SyncDepth {
  static final Duration ABANDONED = Duration.ofMinutes(1);
  static final int MAX_OPEN = 100_000;
  public static final String METRIC = "seqsync.fetch.sync.pages";
  private static final Duration SWEEP_EVERY = Duration.ofSeconds(1);

  private record Key(long userId, String deviceId, String convId) {}

  private record Open(int pages, long nextAfter, long touchedNanos) {}

  private final ConcurrentHashMap<Key, Open> open = new ConcurrentHashMap<>();
  private final DistributionSummary depth;
  private final LongSupplier nanoClock;
  private final AtomicLong lastSweepNanos;

  public SyncDepth(MeterRegistry registry, LongSupplier nanoClock) {
    this.depth = DistributionSummary.builder(METRIC)
        .description("forward pages a device took to catch up a conversation (R25)")
        .serviceLevelObjectives(1, 2, 3, 5, 10, 20, 50, 100)
        .register(registry);
    this.nanoClock = nanoClock;
    this.lastSweepNanos = new AtomicLong(nanoClock.getAsLong());
  }

  /**
   * One forward page served to {@code caller}: from the device's cursor ({@code fromCursor}) or from
   * {@code after}, with its {@code hasMore} and {@code nextAfter}.
   */
  void served(Caller caller, String convId, boolean fromCursor, long after, boolean hasMore, long nextAfter) {
    Key key = new Key(caller.userId(), caller.deviceId(), convId);
    long now = nanoClock.getAsLong();
    int[] pages = new int[1];
    if (hasMore && open.size() >= MAX_OPEN && !open.containsKey(key)) {
      sweep(now);
      if (open.size() >= MAX_OPEN) {
        return; // too many unfinished catch-ups to follow one more
      }
    }
    open.compute(key, (ignored, previous) -> {
      boolean continues = !fromCursor && previous != null && previous.nextAfter() == after;
      pages[0] = continues ? previous.pages() + 1 : 1;
      return hasMore ? new Open(pages[0], nextAfter, now) : null;
    });
    if (!hasMore) {
      depth.record(pages[0]);
    }
  }

  // At most once a second: while the map is full of live catch-ups, a sweep of it per page would
  // cost every new catch-up a walk of MAX_OPEN entries.
  private void sweep(long now) {
    long last = lastSweepNanos.get();
    if (now - last > SWEEP_EVERY.toNanos() && lastSweepNanos.compareAndSet(last, now)) {
      open.values().removeIf(catchUp -> now - catchUp.touchedNanos() > ABANDONED.toNanos());
    }
  }

  /** Catch-ups begun and not ended (for tests). */
  int openCount() {
    return open.size();
  }
}
