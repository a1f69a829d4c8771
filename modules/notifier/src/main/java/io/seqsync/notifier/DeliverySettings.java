package io.seqsync.notifier;

import java.time.Duration;

/**
 * How a {@link DeliveryEngine} sends: {@code maxAttempts} tries per delivery (then the dead
 * letters), the back-off after the first failed try ({@code firstBackoff}, doubled after each
 * further one, at most {@code maxBackoff}), how long a receiver has to answer ({@code
 * requestTimeout}; a claim's lease is twice that), {@code inFlight} requests at most per
 * instance and channel, and how often the outbox is looked at for due rows ({@code pollInterval}).
 * Immutable.
 */
public record DeliverySettings(int maxAttempts, Duration firstBackoff, Duration maxBackoff, Duration requestTimeout,
    int inFlight, Duration pollInterval) {
  public DeliverySettings {
    if (maxAttempts < 1 || inFlight < 1) {
      throw new IllegalArgumentException("maxAttempts and inFlight must be positive");
    }
    if (firstBackoff.isNegative() || maxBackoff.compareTo(firstBackoff) < 0 || requestTimeout.toMillis() <= 0
        || pollInterval.toMillis() <= 0) {
      throw new IllegalArgumentException("back-offs must be ordered and not negative, timeouts positive");
    }
  }

  /** The wait after the {@code attempts}-th failed try: first, 2 x first, 4 x first, ..., at most max. */
  public Duration backoff(int attempts) {
    long millis = firstBackoff.toMillis();
    for (int i = 1; i < attempts && millis < maxBackoff.toMillis(); i++) {
      millis *= 2;
    }
    return Duration.ofMillis(Math.min(millis, maxBackoff.toMillis()));
  }

  /** How long a claimed delivery is left to its claimer before another instance may send it. */
  public Duration lease() {
    return requestTimeout.multipliedBy(2);
  }
}
