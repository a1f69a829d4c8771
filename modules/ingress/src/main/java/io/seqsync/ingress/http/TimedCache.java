package io.seqsync.ingress.http;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Answers that are costly to compute and may be a little old (the delivery figures scan days of
 * messages): each kept for {@code ttl} whoever asks. Callers asking for the same key at once wait
 * for one computation rather than each running their own, so a burst of requests costs one query.
 * Expired entries are dropped when a new one is computed. Thread-safe.
 */
public final class TimedCache<K, V> {
  private record Entry<V>(long atMillis, V value) {}

  private final Duration ttl;
  private final Clock clock;
  private final Map<K, Entry<V>> entries = new ConcurrentHashMap<>();

  public TimedCache(Duration ttl, Clock clock) {
    this.ttl = ttl;
    this.clock = clock;
  }

  public V get(K key, Supplier<V> compute) {
    long now = clock.millis();
    Entry<V> entry = entries.compute(key, (k, old) -> fresh(old, now) ? old : new Entry<>(now, compute.get()));
    if (entry.atMillis() == now) {
      entries.values().removeIf(other -> !fresh(other, now));
    }
    return entry.value();
  }

  /** Drops the key's answer: the next {@link #get} computes it. */
  public void forget(K key) {
    entries.remove(key);
  }

  private boolean fresh(Entry<V> entry, long now) {
    return entry != null && now - entry.atMillis() < ttl.toMillis();
  }
}
