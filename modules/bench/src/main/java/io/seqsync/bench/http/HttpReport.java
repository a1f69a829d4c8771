package io.seqsync.bench.http;

import io.seqsync.bench.http.ConfigurationRun.Result;
import io.seqsync.bench.http.ConfigurationRun.SendRow;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The HTTP benchmark's markdown tables (stdout) and the number formats its progress lines share. */
final class HttpReport {
  private HttpReport() {}

  static void print(HttpBenchOptions options, List<Result> configs, List<FetchBenchmark.Result> fetches,
      Map<String, String> facts, double seconds) {
    StringBuilder out = new StringBuilder();
    header(out, options, facts, seconds);
    sendTable(out, configs);
    if (configs.stream().anyMatch(config -> !config.references().isEmpty())) {
      referenceTable(out, configs);
    }
    if (options.breakdown()) {
      breakdownTable(out, configs);
    }
    insideTables(out, configs);
    cpuTable(out, configs, fetches);
    if (fetches.size() >= 3) {
      fetchTable(out, options, fetches, facts);
    }
    System.out.print(out);
    System.out.flush();
  }

  private static void header(StringBuilder out, HttpBenchOptions options, Map<String, String> facts, double seconds) {
    out.append(String.format(Locale.ROOT, "Run %s UTC, %.0f s in all. Machine: %d cores (nproc), %s RAM, Java %s (%s), %s %s.%n",
        DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").format(Instant.now().atZone(ZoneOffset.UTC)), seconds,
        Runtime.getRuntime().availableProcessors(), memory(), System.getProperty("java.version"),
        System.getProperty("java.vm.name"), System.getProperty("os.name"), System.getProperty("os.version")));
    out.append(String.format(Locale.ROOT, "Options: %s. PostgreSQL %s (synchronous_commit=%s, fsync=%s,"
            + " wal_init_zero=%s, shared_buffers=%s), app pool postgres.pool-size=%s, http.reply-budget=%s,"
            + " http.command-linger=%s, projector.max-poll-records=%s.%n%n",
        optionsLine(options), facts.get("pg.server_version"), facts.get("pg.synchronous_commit"), facts.get("pg.fsync"),
        facts.get("pg.wal_init_zero"), facts.get("pg.shared_buffers"), facts.get("postgres.pool-size"),
        facts.get("http.reply-budget"), facts.get("http.command-linger"), facts.get("projector.max-poll-records")));
  }

  private static void sendTable(StringBuilder out, List<Result> configs) {
    out.append("Send (open loop; latency from each request's due time to its 200):\n\n");
    out.append("| commit interval | offered/s | 200/s achieved | measured | 200 | 202 | errors | not sent | p50 | p90 | p99 | max"
        + " | p99 per second: median / worst | p99 of all answers | max in flight | other processes' CPU |\n");
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (Result config : configs) {
      for (SendRow row : config.rows()) {
        SendLoad.Phase p = row.phase();
        Samples ok = p.okLatencies();
        Samples perSecond = p.p99PerSecond();
        out.append(String.format(Locale.ROOT,
            "| %s | %,d | %,.0f | %,d | %,d | %,d | %,d | %,d | %s | %s | %s | %s | %s / %s | %s | %,d | %.2f cores |%n",
            config.label(), p.rate, p.okPerSecond(), p.measured(), p.countMeasured(200),
            p.countMeasured(202), errors(p), p.notSent, ms(ok.percentile(50)), ms(ok.percentile(90)),
            ms(ok.percentile(99)), ms(ok.max()), ms(perSecond.percentile(50)), ms(perSecond.max()),
            ms(p.allLatencies().percentile(99)), p.maxInFlight,
            row.cpu() == null ? 0.0 : row.cpu().get("other processes")));
      }
      for (int rate : config.skipped()) {
        out.append(String.format(Locale.ROOT, "| %s | %,d | not run: the rate before was not sustained | | | | | | | | | | | | | |%n",
            config.label(), rate));
      }
    }
    out.append('\n');
  }

  private static void referenceTable(StringBuilder out, List<Result> configs) {
    out.append("The reference, the same load in the same run just before each rate (ProduceReference: the POST's body"
        + " produced to Kafka, idempotent, acks=all, answered 200 once acknowledged; no token, sequencer, projection or"
        + " reply path), and seqsync against it:\n\n");
    out.append("| commit interval | offered/s | reference 200/s | p50 | p99 | max | p99 per second: median / worst"
        + " | cores | seqsync p99 ÷ reference p99 | seqsync cores ÷ reference cores |\n");
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (Result config : configs) {
      for (int i = 0; i < config.references().size(); i++) {
        ConfigurationRun.ReferenceRow reference = config.references().get(i);
        SendLoad.Phase p = reference.phase();
        Samples ok = p.okLatencies();
        Samples perSecond = p.p99PerSecond();
        SendRow app = config.rows().get(i);
        long appP99 = app.phase().okLatencies().percentile(99);
        out.append(String.format(Locale.ROOT, "| %s | %,d | %,.0f | %s | %s | %s | %s / %s | %.2f | %s | %s |%n",
            config.label(), p.rate, p.okPerSecond(), ms(ok.percentile(50)),
            ms(ok.percentile(99)), ms(ok.max()), ms(perSecond.percentile(50)), ms(perSecond.max()),
            cores(reference.cpu()), ratio(appP99, ok.percentile(99)), ratio(cores(app.cpu()), cores(reference.cpu()))));
      }
    }
    out.append('\n');
  }

  // The machine's busy cores in a window, without the benchmark's own load generator and tracer.
  private static double cores(CpuMeter.Usage usage) {
    return usage == null ? 0 : usage.total() - usage.get("load generator") - usage.get("tracer");
  }

  private static String ratio(double numerator, double denominator) {
    return denominator <= 0 ? "-" : String.format(Locale.ROOT, "%.1f", numerator / denominator);
  }

  private static void breakdownTable(StringBuilder out, List<Result> configs) {
    out.append("Where a send's time goes (ms, p50 / p99 of every measured send seen on the events topic and announced,"
        + " 200 or 202; announced → 200 of the 200s only; epoch-ms clocks of this JVM):\n\n");
    out.append("| commit interval | offered/s | traced |");
    SendStages.STAGES.forEach(stage -> out.append(' ').append(stage).append(" |"));
    out.append(' ').append(SendStages.TO_ANNOUNCED).append(" |");
    out.append('\n').append("|---|---:|---:|");
    SendStages.STAGES.forEach(stage -> out.append("---:|"));
    out.append("---:|");
    out.append('\n');
    for (Result config : configs) {
      for (SendRow row : config.rows()) {
        out.append(String.format(Locale.ROOT, "| %s | %,d | %,d |", config.label(),
            row.phase().rate, row.traced()));
        for (String stage : Stream.concat(SendStages.STAGES.stream(), Stream.of(SendStages.TO_ANNOUNCED)).toList()) {
          Samples samples = row.stages().get(stage);
          out.append(samples == null || samples.size() == 0 ? " - |"
              : String.format(Locale.ROOT, " %d / %d |", samples.percentile(50), samples.percentile(99)));
        }
        out.append('\n');
      }
    }
    out.append('\n');
  }

  private static void insideTables(StringBuilder out, List<Result> configs) {
    out.append("Inside the app during each measured window (from its meters; Kafka's averages are over their last"
        + " 30-60 s):\n\n");
    out.append("| commit interval | offered/s | server time of a 200 send | ingress produce latency | projector batches/s"
        + " | events per batch | batch poll→commit | PG transactions per 200 |\n");
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|\n");
    appendRows(out, configs, HttpReport::insideLine);
    out.append("\nThe sequencer's stream thread in the same windows:\n\n");
    out.append("| commit interval | offered/s | commands processed/s | polls/s | records per poll | commits/s"
        + " | commit latency | commitTransaction | time in commit | produce retries/s |\n");
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    appendRows(out, configs, HttpReport::sequencerLine);
    out.append("\nThe embedded broker's requests in the same windows (its request meters; every client of the JVM and"
        + " the broker's own, such as transaction markers):\n\n");
    out.append("| commit interval | offered/s | requests/s | per 200 send | the most frequent, per second |\n");
    out.append("|---|---:|---:|---:|---|\n");
    appendRows(out, configs, HttpReport::brokerLine);
    out.append('\n');
  }

  private static String brokerLine(Result config, SendRow row) {
    Map<String, Double> counts = new HashMap<>();
    row.after().values().forEach((key, count) -> {
      // FetchConsumer and FetchFollower are the Fetch requests again, by kind of client.
      if (key.startsWith(AppMetrics.BROKER_REQUESTS) && !key.endsWith("FetchConsumer") && !key.endsWith("FetchFollower")) {
        counts.put(key.substring(AppMetrics.BROKER_REQUESTS.length()), count - row.before().get(key));
      }
    });
    double total = counts.values().stream().mapToDouble(Double::doubleValue).sum();
    double seconds = seconds(row);
    String top = counts.entrySet().stream()
        .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
        .limit(6)
        .map(entry -> String.format(Locale.ROOT, "%s %,.0f", entry.getKey(), entry.getValue() / seconds))
        .collect(Collectors.joining(", "));
    int sends = row.phase().okInWindow;
    return String.format(Locale.ROOT, "| %s | %,d | %,.0f | %s | %s |", config.label(),
        row.phase().rate, total / seconds, sends == 0 ? "-" : String.format(Locale.ROOT, "%.2f", total / sends), top);
  }

  private static void appendRows(StringBuilder out, List<Result> configs, BiFunction<Result, SendRow, String> line) {
    for (Result config : configs) {
      for (SendRow row : config.rows()) {
        out.append(line.apply(config, row)).append('\n');
      }
    }
  }

  private static void cpuTable(StringBuilder out, List<Result> configs, List<FetchBenchmark.Result> fetches) {
    out.append("CPU in cores during each measured window (2 cores = everything):\n\n");
    out.append("| phase |");
    CpuMeter.GROUPS.forEach(group -> out.append(' ').append(group).append(" |"));
    out.append(" total |\n|---|");
    CpuMeter.GROUPS.forEach(group -> out.append("---:|"));
    out.append("---:|\n");
    for (Result config : configs) {
      for (SendRow row : config.rows()) {
        out.append(cpuLine("send " + config.label() + " " + row.phase().rate + "/s",
            row.cpu())).append('\n');
      }
    }
    for (Result config : configs) {
      for (ConfigurationRun.ReferenceRow row : config.references()) {
        out.append(cpuLine("reference " + config.label() + " " + row.phase().rate + "/s",
            row.cpu())).append('\n');
      }
    }
    for (FetchBenchmark.Result fetch : fetches) {
      out.append(cpuLine("fetch, " + fetch.label(), fetch.cpu())).append('\n');
    }
    out.append('\n');
  }

  private static void fetchTable(StringBuilder out, HttpBenchOptions options, List<FetchBenchmark.Result> fetches,
      Map<String, String> facts) {
    out.append(String.format(Locale.ROOT, "Fetch (%d closed-loop clients, pages of %d of %d conversations x %d messages;"
            + " %s):%n%n", options.fetchClients(), FetchBenchmark.PAGE, options.fetchConversations(),
        options.fetchMessages(), facts.getOrDefault("fetch.preload", "")));
    out.append("| path | pages/s | p50 | p90 | p99 | max | failures | PG transactions per page |\n");
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (FetchBenchmark.Result r : fetches) {
      FetchBenchmark.Latency l = r.latencies();
      out.append(String.format(Locale.ROOT, "| %s | %,.0f | %s | %s | %s | %s | %,d | %.2f |%n",
          r.label().startsWith("HTTP") ? "HTTP `GET .../messages?after=X&limit=50` (" + r.label().substring(6) + ")"
              : "JDBC, the same statement",
          r.pagesPerSecond(), ms(l.p50()), ms(l.p90()), ms(l.p99()), ms(l.max()),
          r.failures(), r.pages() == 0 ? 0.0 : (double) r.pg().commits() / r.pages()));
    }
    double jdbc = fetches.get(1).pagesPerSecond();
    out.append(String.format(Locale.ROOT, "%nHTTP / JDBC throughput: %.0f%% (second HTTP pass; first pass %.0f%%;"
        + " goal: at least 50%%).%n", 100 * fetches.get(2).pagesPerSecond() / jdbc,
        100 * fetches.get(0).pagesPerSecond() / jdbc));
    if (fetches.size() > 3) {
      out.append(String.format(Locale.ROOT, "HTTP from wrk (its own process, counted in *other processes*) / JDBC:"
          + " %.0f%%.%n", 100 * fetches.get(3).pagesPerSecond() / jdbc));
    }
  }

  private static String insideLine(Result config, SendRow row) {
    AppMetrics.Snapshot a = row.before();
    AppMetrics.Snapshot b = row.after();
    double seconds = seconds(row);
    String count = "http_server_requests_seconds_count";
    String sum = "http_server_requests_seconds_sum";
    double sends = b.sum(count, AppMetrics.SEND_ROUTE, "status=\"200\"", "method=\"POST\"")
        - a.sum(count, AppMetrics.SEND_ROUTE, "status=\"200\"", "method=\"POST\"");
    double sendSeconds = b.sum(sum, AppMetrics.SEND_ROUTE, "status=\"200\"", "method=\"POST\"")
        - a.sum(sum, AppMetrics.SEND_ROUTE, "status=\"200\"", "method=\"POST\"");
    double batches = b.sum("seqsync_projector_batch_size_count") - a.sum("seqsync_projector_batch_size_count");
    double records = b.sum("seqsync_projector_batch_size_sum") - a.sum("seqsync_projector_batch_size_sum");
    double batchSeconds = b.sum("seqsync_projector_batch_latency_seconds_sum")
        - a.sum("seqsync_projector_batch_latency_seconds_sum");
    SendLoad.Phase p = row.phase();
    return String.format(Locale.ROOT, "| %s | %,d | %s | %.1f ms | %.1f | %.1f | %.1f ms | %s |",
        config.label(), p.rate,
        sends == 0 ? "-" : String.format(Locale.ROOT, "%.1f ms", 1000 * sendSeconds / sends),
        b.get("jmx:ingress-producer:request-latency-avg"), batches / seconds, batches == 0 ? 0 : records / batches,
        batches == 0 ? 0 : 1000 * batchSeconds / batches,
        p.okInWindow == 0 ? "-" : String.format(Locale.ROOT, "%.2f", (double) row.pg().commits() / p.okInWindow));
  }

  private static String sequencerLine(Result config, SendRow row) {
    AppMetrics.Snapshot a = row.before();
    AppMetrics.Snapshot b = row.after();
    double seconds = seconds(row);
    double processed = b.get("jmx:sequencer-thread:process-total") - a.get("jmx:sequencer-thread:process-total");
    double polls = b.get("jmx:sequencer-thread:poll-total") - a.get("jmx:sequencer-thread:poll-total");
    double commits = b.get("jmx:sequencer-thread:commit-total") - a.get("jmx:sequencer-thread:commit-total");
    double commitNs = b.get("jmx:sequencer-producer:txn-commit-time-ns-total")
        - a.get("jmx:sequencer-producer:txn-commit-time-ns-total");
    double retries = row.warned("sequencer producer retry CONCURRENT_TRANSACTIONS")
        + row.warned("sequencer producer retry OUT_OF_ORDER_SEQUENCE_NUMBER");
    return String.format(Locale.ROOT, "| %s | %,d | %,.0f | %.1f | %.1f | %.1f | %.1f ms | %.1f ms | %.0f%% | %.1f |",
        config.label(), row.phase().rate, processed / seconds, polls / seconds,
        polls == 0 ? 0 : processed / polls, commits / seconds, b.get("jmx:sequencer-thread:commit-latency-avg"),
        commits == 0 ? 0 : commitNs / commits / 1e6, 100 * b.get("jmx:sequencer-thread:commit-ratio"), retries / seconds);
  }

  private static double seconds(SendRow row) {
    return row.cpu() == null ? row.phase().durationSeconds : row.cpu().seconds();
  }

  private static String cpuLine(String label, CpuMeter.Usage usage) {
    StringBuilder line = new StringBuilder("| ").append(label).append(" |");
    if (usage == null) {
      return line.append(" - |").toString();
    }
    for (String group : CpuMeter.GROUPS) {
      line.append(String.format(Locale.ROOT, " %.2f |", usage.get(group)));
    }
    return line.append(String.format(Locale.ROOT, " %.2f |", usage.total())).toString();
  }

  private static String optionsLine(HttpBenchOptions o) {
    return String.format(Locale.ROOT, "rates %s/s, %d s measured after %d s warm-up (twice that before the first rate),"
            + " commit intervals %s, %,d direct conversations, at most %,d requests in flight (%s client), %d partitions",
        o.rates(), o.durationSeconds(), o.warmupSeconds(),
        o.commitIntervals().stream().map(HttpBenchOptions::format).toList(), o.conversations(), o.connections(),
        o.sendClient(), o.partitions()) + (o.config().isEmpty() ? "" : ", app settings " + o.config());
  }

  static String ms(long micros) {
    if (micros >= 10_000) {
      return String.format(Locale.ROOT, "%,d ms", Math.round(micros / 1000.0));
    }
    return String.format(Locale.ROOT, "%.1f ms", micros / 1000.0);
  }

  private static String memory() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
        if (line.startsWith("MemTotal:")) {
          long kb = Long.parseLong(line.replaceAll("[^0-9]", ""));
          return String.format(Locale.ROOT, "%.0f GiB", kb / 1024.0 / 1024.0);
        }
      }
    } catch (IOException | RuntimeException e) {
      // unknown
    }
    return "? GiB";
  }

  static String abbreviate(String text) {
    return text.length() <= 200 ? text : text.substring(0, 200) + "...";
  }

  static int errors(SendLoad.Phase p) {
    int errors = p.exceptions;
    for (int i = p.warmupRequests; i < p.total; i++) {
      errors += p.status[i] != 0 && p.status[i] != 200 && p.status[i] != 202 ? 1 : 0;
    }
    // exceptions of warm-up requests are counted too: they are rare and worth seeing
    return errors;
  }
}
