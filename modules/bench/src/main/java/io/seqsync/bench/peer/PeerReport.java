package io.seqsync.bench.peer;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** The three side-by-side tables (markdown on stdout) and the ratios the goals are about. */
final class PeerReport {
  private PeerReport() {}

  static String live(List<LiveMeasurement.Row> rows) {
    StringBuilder out = new StringBuilder("### Live: A → B online on one device\n\n"
        + "| offered | server | delivered/s | p50 | p99 | max | missing | dup | out of order | CPU s per 1,000 | p99 ≤ 200 ms at the rate |\n"
        + "|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (LiveMeasurement.Row row : rows) {
      out.append(String.format(Locale.ROOT, "| %,d/s | %s | %,.0f | %s | %s | %s | %,d | %,d | %,d | %.2f | %s |%n", row.rate(),
          row.server(), row.deliveredPerSecond(), ms(row.latencies().percentile(50)), ms(row.latencies().percentile(99)),
          ms(row.latencies().max()), row.missing(), row.duplicates(), row.outOfOrder(), row.cpuPerThousand(),
          row.holds() ? "yes" : "no"));
    }
    rows.stream().filter(LiveMeasurement.Row::saturated).forEach(row -> out.append(String.format(Locale.ROOT,
        "%n%s delivered under 80 %% of %,d/s: its higher rates were not run.", row.server(), row.rate())));
    out.append('\n');
    Optional<Integer> seqsync = highestHeld(rows, "seqsync");
    Optional<Integer> ejabberd = highestHeld(rows, "ejabberd");
    out.append(String.format(Locale.ROOT, "%nHighest offered rate delivered at p99 ≤ 200 ms (95 %% delivered in the window,"
            + " ≤ 1 %% missing): seqsync %s, ejabberd %s%s.%n", seqsync.map(r -> String.format("%,d/s", r)).orElse("none"),
        ejabberd.map(r -> String.format("%,d/s", r)).orElse("none"),
        seqsync.isPresent() && ejabberd.isPresent() ? String.format(Locale.ROOT, ": ratio %.2f", (double) seqsync.get() / ejabberd.get())
            : ""));
    Optional<Integer> seqsyncDelivered = highest(rows, "seqsync", LiveMeasurement.Row::delivers);
    Optional<Integer> ejabberdDelivered = highest(rows, "ejabberd", LiveMeasurement.Row::delivers);
    out.append(String.format(Locale.ROOT, "Highest offered rate delivered whatever the latency (95 %% in the window,"
            + " ≤ 1 %% missing): seqsync %s, ejabberd %s%s.%n", rate(seqsyncDelivered), rate(ejabberdDelivered),
        seqsyncDelivered.isPresent() && ejabberdDelivered.isPresent()
            ? String.format(Locale.ROOT, ": ratio %.2f", (double) seqsyncDelivered.get() / ejabberdDelivered.get()) : ""));
    return out.toString();
  }

  private static String rate(Optional<Integer> rate) {
    return rate.map(r -> String.format(Locale.ROOT, "%,d/s", r)).orElse("none");
  }

  private static Optional<Integer> highest(List<LiveMeasurement.Row> rows, String server,
      java.util.function.Predicate<LiveMeasurement.Row> test) {
    return rows.stream().filter(row -> row.server().equals(server) && test.test(row)).map(LiveMeasurement.Row::rate)
        .max(Integer::compare);
  }

  static Optional<Integer> highestHeld(List<LiveMeasurement.Row> rows, String server) {
    return highest(rows, server, LiveMeasurement.Row::holds);
  }

  static String catchUp(List<CatchUpMeasurement.Row> rows) {
    StringBuilder out = new StringBuilder("### Catch-up: B offline while the messages arrive, then B connects\n\n"
        + "| server | sent | stored before B connects | held by B | catch-up | messages/s | bytes in (per message) | bytes out | dup | CPU s per 1,000 | fill took |\n"
        + "|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (CatchUpMeasurement.Row row : rows) {
      out.append(String.format(Locale.ROOT, "| %s | %,d | %,d | %,d | %.2f s | %,.0f | %,d (%.0f) | %,d | %,d | %.2f | %.0f s |%n",
          row.server(), row.sent(), row.stored(), row.held(), row.catchUp().seconds(), row.held() / row.catchUp().seconds(),
          row.catchUp().bytesIn(), (double) row.catchUp().bytesIn() / Math.max(1, row.held()), row.catchUp().bytesOut(),
          row.duplicates(), row.cpuPerThousand(), row.fillSeconds()));
    }
    Optional<CatchUpMeasurement.Row> seqsync = rows.stream().filter(row -> row.server().equals("seqsync")).findFirst();
    Optional<CatchUpMeasurement.Row> ejabberd = rows.stream().filter(row -> row.server().equals("ejabberd")).findFirst();
    if (seqsync.isPresent() && ejabberd.isPresent()) {
      out.append(String.format(Locale.ROOT, "%nejabberd's catch-up time / seqsync's: %.2f.%n",
          ejabberd.get().catchUp().seconds() / seqsync.get().catchUp().seconds()));
    }
    return out.toString();
  }

  static String crash(List<CrashMeasurement.Row> rows) {
    StringBuilder out = new StringBuilder("### Crash: kill -9 mid-stream, restarted at once\n\n"
        + "| server | offered | taken by the server | received by B | lost | duplicated | redelivered (same copy) | out of order | send retries | down | stored for B |\n"
        + "|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (CrashMeasurement.Row row : rows) {
      out.append(String.format(Locale.ROOT, "| %s | %,d | %,d | %,d | %,d | %,d | %,d | %,d | %,d | %.1f s | %,d |%n", row.server(),
          row.offered(), row.accepted(), row.received(), row.lost(), row.duplicates(), row.redeliveries(), row.outOfOrder(),
          row.retries(), row.downSeconds(), row.stored()));
    }
    rows.stream().filter(row -> row.stillInOutboxes() > 0 || !row.clients().isEmpty()).forEach(row -> out.append(
        String.format(Locale.ROOT, "%n%s, when the outboxes were given up (3 minutes after the schedule): %,d messages"
            + " never taken%s.", row.server(), row.stillInOutboxes(), row.clients().isEmpty() ? "" : "; " + row.clients())));
    out.append('\n');
    return out.toString();
  }

  static String facts(Map<String, String> facts) {
    StringBuilder out = new StringBuilder();
    facts.forEach((name, value) -> out.append("- ").append(name).append(": ").append(value).append('\n'));
    return out.toString();
  }

  private static String ms(long micros) {
    return micros < 10_000 ? String.format(Locale.ROOT, "%.1f ms", micros / 1e3) : String.format(Locale.ROOT, "%,d ms", micros / 1_000);
  }
}
