package io.seqsync.bench;

import io.seqsync.testkit.ApiClient;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;

/**
 * What the requests of a measured window came to, from any thread: every status, the latency of
 * each 200 (HdrHistogram), the requests that got no answer and the first reason why.
 */
public final class Tally {
  private final Histogram ok = Latencies.histogram();
  private final Map<Integer, LongAdder> statuses = new ConcurrentHashMap<>();
  private final LongAdder errors = new LongAdder();
  private final AtomicReference<String> firstError = new AtomicReference<>();

  /** An answer ({@code error} null) or a failure, {@code nanos} after its start or due time. */
  public void add(ApiClient.Response response, Throwable error, long nanos) {
    if (error != null) {
      errors.increment();
      firstError.compareAndSet(null, String.valueOf(error));
      return;
    }
    add(response.status(), nanos);
  }

  public void add(int status, long nanos) {
    statuses.computeIfAbsent(status, s -> new LongAdder()).increment();
    if (status == 200) {
      Latencies.record(ok, nanos);
    }
  }

  public void error(String why) {
    errors.increment();
    firstError.compareAndSet(null, why);
  }

  public Histogram latencies() {
    return ok;
  }

  public long count(int status) {
    LongAdder n = statuses.get(status);
    return n == null ? 0 : n.sum();
  }

  public long errors() {
    return errors.sum();
  }

  /** The statuses, the errors and the 200s' latencies, for a result row. */
  public Map<String, Object> summary(double seconds) {
    Map<String, Long> byStatus = new TreeMap<>();
    statuses.forEach((status, n) -> byStatus.put(String.valueOf(status), n.sum()));
    Map<String, Object> row = Result.row("okPerSecond", Math.round(count(200) / seconds), "statuses", byStatus,
        "errors", errors(), "firstError", firstError.get());
    row.put("latency", Latencies.summary(ok));
    return row;
  }
}
