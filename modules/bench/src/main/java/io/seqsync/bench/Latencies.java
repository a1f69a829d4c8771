package io.seqsync.bench;

import java.util.Map;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/** Latency histograms (HdrHistogram, in microseconds, any thread) and their summary for a result row. */
public final class Latencies {
  private Latencies() {}

  /** A histogram of up to an hour, three significant digits, safe to record into from any thread. */
  public static Histogram histogram() {
    return new ConcurrentHistogram(3_600_000_000L, 3);
  }

  /** Records {@code nanos} as microseconds. */
  public static void record(Histogram histogram, long nanos) {
    histogram.recordValue(Math.max(0, Math.min(nanos / 1_000, histogram.getHighestTrackableValue())));
  }

  /** count, p50, p90, p99, max (ms). */
  public static Map<String, Object> summary(Histogram h) {
    return Result.row("count", h.getTotalCount(), "p50Ms", ms(h, 50), "p90Ms", ms(h, 90), "p99Ms", ms(h, 99),
        "maxMs", h.getTotalCount() == 0 ? 0 : h.getMaxValue() / 1e3);
  }

  public static double ms(Histogram h, double percentile) {
    return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(percentile) / 1e3;
  }
}
