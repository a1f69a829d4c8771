package io.seqsync.notifier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.EnumMap;
import java.util.Map;

/** A channel's counters: {@code seqsync.notifier.deliveries} by outcome, retries, and request times. */
final class DeliveryMetrics {
  private final Map<Verdict, Counter> settled = new EnumMap<>(Verdict.class);
  private final Counter retried;
  private final Timer requestTime;

  DeliveryMetrics(MeterRegistry registry, String channel) {
    for (Verdict verdict : Verdict.values()) {
      if (verdict != Verdict.RETRY) {
        settled.put(verdict, registry.counter("seqsync.notifier.deliveries", "channel", channel,
            "outcome", verdict.name().toLowerCase()));
      }
    }
    retried = registry.counter("seqsync.notifier.retries", "channel", channel);
    requestTime = registry.timer("seqsync.notifier.request.time", "channel", channel);
  }

  void settled(Verdict verdict) {
    settled.get(verdict).increment();
  }

  Counter retried() {
    return retried;
  }

  Timer requestTime() {
    return requestTime;
  }
}
