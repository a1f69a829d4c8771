package io.seqsync.ingress.ops;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;

/**
 * Latency timers with fixed buckets, so that Prometheus (histogram_quantile) and the ops dashboard
 * compute percentiles over any window from the cumulative counts: {@code <name>_seconds_bucket{le}}.
 */
public final class Latencies {
  /** The buckets' upper bounds: 2 ms to 10 s, dense where the goals are (100 ms, the 2 s reply budget). */
  public static final Duration[] BUCKETS = {Duration.ofMillis(2), Duration.ofMillis(5), Duration.ofMillis(10),
      Duration.ofMillis(20), Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(200),
      Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(5),
      Duration.ofSeconds(10)};

  private Latencies() {}

  public static Timer timer(MeterRegistry registry, String name, String description) {
    return Timer.builder(name).description(description).serviceLevelObjectives(BUCKETS).register(registry);
  }
}
