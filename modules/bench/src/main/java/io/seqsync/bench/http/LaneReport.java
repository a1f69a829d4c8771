package io.seqsync.bench.http;

import io.seqsync.config.FetchSettings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The lane benchmark's Markdown: one row per kind of phase (its rounds added up), the first
 * screens' p99 and p50 under each flood against alone, and each round's p99 to show the spread.
 */
final class LaneReport {
  private LaneReport() {}

  static String markdown(LaneBenchOptions options, FetchSettings fetch, int poolSize, List<LaneBenchmark.Phase> rounds,
      String started, double othersBefore) {
    Map<String, LaneBenchmark.Phase> kinds = new LinkedHashMap<>();
    for (LaneBenchmark.Phase phase : rounds) {
      kinds.merge(phase.label(), phase, LaneBenchmark.Phase::plus);
    }
    List<LaneBenchmark.Phase> phases = List.copyOf(kinds.values());
    StringBuilder out = new StringBuilder();
    out.append(String.format(Locale.ROOT, "Run started %s; %d cores; other processes used %.2f cores just before.%n%n",
        started, Runtime.getRuntime().availableProcessors(), othersBefore));
    out.append(String.format(Locale.ROOT, "Settings: postgres.pool-size=%d; first-screen lane %s; paging lane %s;"
            + " fetch.rate=%d/s, fetch.burst=%d per device. Load: %d first-screen fetches a second (`?last=%d`, open loop), %d closed-loop flood"
            + " clients (`before=S&limit=50` and `after=A&until=A+50`; rude ones pause %d ms after a 503), %,d conversations x"
            + " %,d messages, %d devices each; %d rounds of %d s per kind.%n%n",
        poolSize, lane(fetch.firstScreen()), lane(fetch.paging()), fetch.ratePerSecond(), fetch.burst(),
        options.screenRate(), LaneBenchmark.SCREEN_LAST, options.floodClients(), options.rudePauseMillis(), options.conversations(),
        options.messages(), options.devices(), options.rounds(), options.durationSeconds()));
    out.append("| phase | first screens/s | p50 ms | p90 ms | p99 ms | max ms | first screens not 200 |"
        + " paging 200/s | paging 503/s | 429s | CPU: ingress | PostgreSQL | load generator | JVM GC/JIT | other processes |\n");
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (LaneBenchmark.Phase phase : phases) {
      LaneBenchmark.Tally screens = phase.screens();
      LaneBenchmark.Tally flood = phase.flood();
      Samples latencies = screens.latencies();
      double seconds = phase.seconds();
      out.append(String.format(Locale.ROOT,
          "| %s | %,.0f | %.2f | %.2f | %.2f | %.2f | %s | %s | %s | %,d | %.2f | %.2f | %.2f | %.2f | %.2f |%n",
          phase.label(), latencies.size() / seconds, ms(latencies.percentile(50)), ms(latencies.percentile(90)),
          ms(latencies.percentile(99)), ms(latencies.max()), notOk(screens),
          flood == null ? "-" : String.format(Locale.ROOT, "%,.0f", flood.count(200) / seconds),
          flood == null ? "-" : String.format(Locale.ROOT, "%,.0f", flood.count(503) / seconds),
          screens.count(429) + (flood == null ? 0 : flood.count(429)),
          phase.cpu().get("ingress"), phase.cpu().get("PostgreSQL"), phase.cpu().get("load generator"),
          phase.cpu().get("JVM GC/JIT"), phase.cpu().get("other processes")));
    }
    Samples alone = kinds.get(LaneBenchmark.ALONE).screens().latencies();
    for (String flood : List.of(LaneBenchmark.POLITE, LaneBenchmark.RUDE)) {
      Samples flooded = kinds.get(flood).screens().latencies();
      out.append(String.format(Locale.ROOT, "%nFirst screens %s against alone: p99 x%.2f, p50 x%.2f.%n",
          flood.substring(2), ratio(flooded.percentile(99), alone.percentile(99)),
          ratio(flooded.percentile(50), alone.percentile(50))));
    }
    out.append("\nFirst screens' p99 (ms) round by round:");
    for (String kind : kinds.keySet()) {
      out.append(String.format(Locale.ROOT, "%n- %s: %s", kind, String.join(" / ", rounds.stream()
          .filter(phase -> phase.label().equals(kind))
          .map(phase -> String.format(Locale.ROOT, "%.1f", ms(phase.screens().latencies().percentile(99)))).toList())));
    }
    out.append('\n');
    for (LaneBenchmark.Phase phase : phases) {
      for (LaneBenchmark.Tally tally : new LaneBenchmark.Tally[] {phase.screens(), phase.flood()}) {
        if (tally != null && tally.firstError() != null) {
          out.append(String.format("%nFirst client error in \"%s\": %s%n", phase.label(), tally.firstError()));
        }
      }
    }
    return out.toString();
  }

  private static String lane(FetchSettings.Lane lane) {
    return String.format(Locale.ROOT, "%d running + %d queued, %d ms wait", lane.concurrency(), lane.queue(),
        lane.maxWait().toMillis());
  }

  /** How many were not 200, by status: {@code 0}, or {@code 53 (503: 50, error: 3)}. */
  private static String notOk(LaneBenchmark.Tally tally) {
    long count = tally.total() - tally.count(200);
    if (count == 0) {
      return "0";
    }
    List<String> parts = new ArrayList<>();
    tally.statuses().forEach((status, n) -> {
      if (status != 200) {
        parts.add(status + ": " + n);
      }
    });
    if (tally.errors() > 0) {
      parts.add("error: " + tally.errors());
    }
    return String.format(Locale.ROOT, "%,d (%s)", count, String.join(", ", parts));
  }

  private static double ms(long micros) {
    return micros / 1e3;
  }

  private static double ratio(long a, long b) {
    return b == 0 ? Double.NaN : (double) a / b;
  }
}
