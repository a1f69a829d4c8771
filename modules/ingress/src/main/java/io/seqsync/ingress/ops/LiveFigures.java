package io.seqsync.ingress.ops;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import io.seqsync.ingress.api.Lane;
import io.seqsync.ingress.api.MessageEndpoints;
import io.seqsync.ingress.api.SyncDepth;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The ops dashboard's live figures ({@code GET /ops/api/live}): the meters as they stand now, all
 * cumulative (counters, and histograms as cumulative counts per bucket), plus the gauges and the
 * {@link OpsMonitor}'s latest look. The page turns two of these into rates and windowed
 * percentiles, as Prometheus does with {@code rate} and {@code histogram_quantile}, so nothing here
 * keeps state per viewer and a poll costs reading the meters in memory.
 */
public final class LiveFigures {
  /** Requests answered, by what they got. */
  record Sends(long ok, long accepted, long refused, long failed) {}

  /** A histogram: bucket upper bounds (ms for latencies, pages for paging depth) and cumulative counts. */
  record Histogram(double[] bounds, long[] cumulative, long count) {}

  record Push(long connections, long dropped, Histogram latencyMs) {}

  record Lane(String lane, long inFlight, long waiting, long rejected) {}

  record Fetch(List<Lane> lanes, long rateLimited, Histogram syncPages) {}

  record Anomalies(Map<String, Long> seen, Long recorded, List<?> latest) {}

  /** The abuse limits: refusals by limit (since start), whether Redis keeps them, checks Redis missed. */
  record Limits(Map<String, Long> refused, boolean shared, long redisFallbacks) {}

  record Snapshot(long time, Sends sends, Histogram sendToSeqMs, Push push, Fetch fetch, Anomalies seqAnomalies,
      Object projector, Object sequencer, Object deadLetters, long monitorLookedAt, String monitorProblem,
      Limits limits) {}

  private final MeterRegistry registry;
  private final OpsMonitor monitor;

  public LiveFigures(MeterRegistry registry, OpsMonitor monitor) {
    this.registry = registry;
    this.monitor = monitor;
  }

  Snapshot now() {
    OpsMonitor.Figures looked = monitor.figures();
    Map<String, Long> seen = new TreeMap<>();
    registry.find("seqsync.projector.seq.anomalies").counters()
        .forEach(counter -> seen.put(counter.getId().getTag("kind"), (long) counter.count()));
    return new Snapshot(System.currentTimeMillis(), sends(), histogram(registry.find("seqsync.send.seq").timer()),
        new Push(gauge("seqsync.push.connections"), functionCount("seqsync.push.dropped"),
            histogram(registry.find("seqsync.push.latency").timer())),
        new Fetch(lanes(), count("seqsync.ingress.fetch.rate.limited"),
            histogram(registry.find(SyncDepth.METRIC).summary())),
        new Anomalies(seen, looked.anomalies() == null ? null : looked.anomalies().recorded(),
            looked.anomalies() == null ? List.of() : looked.anomalies().latest()),
        looked.lag() == null ? null : Map.of("partitions", looked.lag().projector(), "lag", looked.lag().projectorLag()),
        looked.lag() == null ? null : looked.lag().sequencer(), looked.deadLetters(), looked.lookedAt(),
        looked.problem(), limits());
  }

  private Limits limits() {
    Map<String, Long> refused = new TreeMap<>();
    registry.find("seqsync.rate.limited").counters()
        .forEach(counter -> refused.put(counter.getId().getTag("limit"), (long) counter.count()));
    return new Limits(refused, gauge("seqsync.limits.shared") == 1, count("seqsync.limits.redis.fallback"));
  }

  private Sends sends() {
    long ok = 0;
    long accepted = 0;
    long refused = 0;
    long failed = 0;
    for (Timer timer : registry.find("http.server.requests").tag("method", "POST").tag("route", MessageEndpoints.MESSAGES)
        .timers()) {
      int status = Integer.parseInt(timer.getId().getTag("status"));
      long count = timer.count();
      if (status == 200) {
        ok += count;
      } else if (status == 202) {
        accepted += count;
      } else if (status < 500) {
        refused += count;
      } else {
        failed += count;
      }
    }
    return new Sends(ok, accepted, refused, failed);
  }

  private List<Lane> lanes() {
    List<Lane> lanes = new ArrayList<>();
    registry.find("seqsync.ingress.lane.rejected").counters().forEach(rejected -> {
      String lane = rejected.getId().getTag("lane");
      lanes.add(new Lane(lane, tagged("seqsync.ingress.lane.in.flight", lane), tagged("seqsync.ingress.lane.waiting", lane),
          (long) rejected.count()));
    });
    lanes.sort(Comparator.comparing(Lane::lane)); // a stable order: the page charts them by position
    return lanes;
  }

  private long tagged(String gauge, String lane) {
    Gauge found = registry.find(gauge).tag("lane", lane).gauge();
    return found == null ? 0 : (long) found.value();
  }

  private long gauge(String name) {
    Gauge found = registry.find(name).gauge();
    return found == null ? 0 : (long) found.value();
  }

  private long count(String name) {
    Counter found = registry.find(name).counter();
    return found == null ? 0 : (long) found.count();
  }

  private long functionCount(String name) {
    FunctionCounter found = registry.find(name).functionCounter();
    return found == null ? 0 : (long) found.count();
  }

  private static Histogram histogram(Timer timer) {
    return timer == null ? null : histogram(timer.takeSnapshot(), true);
  }

  private static Histogram histogram(DistributionSummary summary) {
    return summary == null ? null : histogram(summary.takeSnapshot(), false);
  }

  private static Histogram histogram(HistogramSnapshot snapshot, boolean nanos) {
    CountAtBucket[] buckets = snapshot.histogramCounts();
    double[] bounds = Arrays.stream(buckets)
        .mapToDouble(bucket -> nanos ? bucket.bucket(TimeUnit.MILLISECONDS) : bucket.bucket()).toArray();
    long[] cumulative = Arrays.stream(buckets).mapToLong(bucket -> (long) bucket.count()).toArray();
    return new Histogram(bounds, cumulative, snapshot.count());
  }
}
