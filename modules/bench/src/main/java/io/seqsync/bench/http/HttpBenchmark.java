package io.seqsync.bench.http;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import io.seqsync.app.SeqsyncApp;
import io.seqsync.bench.CliOptions;
import io.seqsync.config.ConfigLoader;
import io.seqsync.config.SeqsyncConfig;
import io.seqsync.events.Topics;
import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.slf4j.LoggerFactory;

/**
 * The HTTP benchmark of the pull API, on the whole app in this JVM (embedded Kafka, PostgreSQL and
 * Redis; sequencer, projector, ingress), with the load generated in the same JVM:
 * <ol>
 *   <li>send: an open-loop load of {@code POST /v1/conversations/{convId}/messages} at each offered
 *       rate, latency from each request's due time to its {@code 200} (committed seq), once per
 *       {@code sequencer.commit-interval} given (one app start each); with the latency split into
 *       stages by watching the events topic and the announcements;
 *   <li>fetch (first configuration only): pages of 50 over HTTP by 64 closed-loop clients, next to
 *       the same statement straight through JDBC by 64 threads.
 * </ol>
 * Markdown tables on stdout, progress on stderr. See docs/benchmarks.md and scripts/bench-http.
 */
public final class HttpBenchmark {
  private static final Duration TOKEN_TTL = Duration.ofHours(2);
  static final List<String> STAGES = List.of(
      "due → produced", "produced → numbered", "numbered → committed", "committed → announced", "announced → 200");
  static final String TO_ANNOUNCED = "due → announced";

  /** One send phase with what was measured around it. */
  record SendRow(Duration commitInterval, SendLoad.Phase phase, Map<String, Samples> stages, int traced,
      CpuMeter.Usage cpu, PgStats.Delta pg, AppMetrics.Snapshot before, AppMetrics.Snapshot after, Map<String, Long> warnings) {
    long warned(String kind) {
      return warnings == null ? 0 : warnings.getOrDefault(kind, 0L);
    }
  }

  private static KafkaWarnings warnings;

  /** One configuration: its send rows, the rates it skipped, and how long its start took. */
  record ConfigResult(Duration commitInterval, double startSeconds, List<SendRow> rows, List<Integer> skipped) {}

  private HttpBenchmark() {}

  public static void main(String[] args) throws Exception {
    HttpBenchOptions options = CliOptions.parseOrExit(args, HttpBenchOptions::parse, HttpBenchOptions.USAGE);
    quietLogs();
    if (ForkJoinPool.getCommonPoolParallelism() < 2) {
      // Else CompletableFuture runs every default-executor stage on a new thread, and the JDK's
      // HttpClient completes each response through one: a thread per request (scripts/bench-http
      // sets -Djava.util.concurrent.ForkJoinPool.common.parallelism=2).
      System.err.println("  (warning: ForkJoinPool.commonPool() parallelism is "
          + ForkJoinPool.getCommonPoolParallelism() + ": the HTTP client will start a thread per response)");
    }
    warnings = KafkaWarnings.install();
    Path root = options.dir().orElse(Files.createTempDirectory("seqsync-bench-http-"));
    long began = System.nanoTime();
    List<ConfigResult> configs = new ArrayList<>();
    List<FetchBenchmark.Result> fetches = new ArrayList<>();
    Map<String, String> facts = new HashMap<>();
    try {
      for (int c = 0; c < options.commitIntervals().size(); c++) {
        Duration interval = options.commitIntervals().get(c);
        configs.add(runConfiguration(options, root.resolve("c" + c + "-" + HttpBenchOptions.format(interval)), interval,
            c == 0 && options.fetch(), fetches, facts));
      }
    } finally {
      if (options.dir().isEmpty()) {
        deleteTree(root);
      }
    }
    report(options, configs, fetches, facts, (System.nanoTime() - began) / 1e9);
    System.exit(0);
  }

  private static ConfigResult runConfiguration(HttpBenchOptions options, Path dataDir, Duration interval, boolean fetch,
      List<FetchBenchmark.Result> fetches, Map<String, String> facts) {
    CpuMeter cpu = new CpuMeter(dataDir.toString());
    if (options.quietWaitSeconds() > 0) {
      double others = cpu.awaitQuiet(options.quietWaitSeconds());
      if (others >= 0.25) {
        System.err.printf("  (other processes still use %.2f cores; running anyway)%n", others);
      }
    }
    String label = "sequencer.commit-interval=" + HttpBenchOptions.format(interval);
    System.err.printf("== %s: starting the app in %s%n", label, dataDir);
    long starting = System.nanoTime();
    SeqsyncConfig config = ConfigLoader.of(Map.of(
        "data-dir", dataDir.toString(),
        "kafka.embedded-port", "0",
        "postgres.embedded-port", "0",
        "redis.embedded-port", "0",
        "http.host", "127.0.0.1",
        "http.port", "0",
        "kafka.partitions", Integer.toString(options.partitions()),
        "sequencer.commit-interval", interval.toMillis() + "ms",
        // The fetch phase's pages (after=X) run in the paging lane: as wide as the default pool of 16
        // allows next to the first-screen lane's 8, and every client's page waits its turn, no 503.
        "fetch.paging.concurrency", "7",
        "fetch.paging.queue", Integer.toString(options.fetchClients())));
    ExecutorService httpThreads = Executors.newFixedThreadPool(2, named("bench-http-"));
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(httpThreads)
        .connectTimeout(Duration.ofSeconds(5)).build();
    List<SendRow> rows = new ArrayList<>();
    List<Integer> skipped = new ArrayList<>();
    double startSeconds;
    try (SeqsyncApp app = SeqsyncApp.start(config);
        PgStats pg = new PgStats(app.stack().postgresJdbcUrl(), app.stack().postgresUser(),
            app.stack().postgresPassword())) {
      startSeconds = (System.nanoTime() - starting) / 1e9;
      System.err.printf("   started in %.1f s; HTTP on port %d%n", startSeconds, app.httpPort());
      for (String setting : List.of("server_version", "synchronous_commit", "fsync", "shared_buffers", "max_connections")) {
        facts.putIfAbsent("pg." + setting, pg.setting(setting));
      }
      facts.putIfAbsent("postgres.pool-size", Integer.toString(config.postgres().poolSize()));
      facts.putIfAbsent("http.reply-budget", HttpBenchOptions.format(config.http().replyBudget()));
      facts.putIfAbsent("projector.max-poll-records", Integer.toString(config.projector().maxPollRecords()));

      List<SendLoad.Conversation> conversations = new ArrayList<>();
      for (int k = 0; k < options.conversations(); k++) {
        long a = 2L * k + 1;
        conversations.add(new SendLoad.Conversation("d:" + a + ":" + (a + 1),
            app.tokens().mint(a, "bench", TOKEN_TTL), app.tokens().mint(a + 1, "bench", TOKEN_TTL)));
      }
      // The fetch first: its preload (every message through the sequencer and the projector) and
      // its pages warm up the JIT for the send phases that follow.
      if (fetch) {
        fetches.addAll(runFetch(options, app, config, http, cpu, pg, facts));
      }
      SendLoad load = new SendLoad(http, app.httpPort(), conversations, options.connections());
      AppMetrics metrics = new AppMetrics(http, app.httpPort());
      Topics topics = Topics.from(config.kafka());
      try (SendTracer tracer = options.breakdown()
          ? new SendTracer(app.stack().kafkaBootstrapServers(), topics.events().name(), app.stack().redisUri()) : null) {
        for (int r = 0; options.send() && r < options.rates().size(); r++) {
          int rate = options.rates().get(r);
          if (!rows.isEmpty() && options.stopWhenSaturated() && !rows.get(rows.size() - 1).phase().sustained()) {
            skipped.add(rate);
            continue;
          }
          if (tracer != null) {
            tracer.clear();
          }
          // The first rate also warms up the JIT, the connections and the stores: twice the warm-up.
          int warmup = r == 0 ? 2 * options.warmupSeconds() : options.warmupSeconds();
          System.err.printf("   send %,d/s: %d s warm-up + %d s measured%n", rate, warmup, options.durationSeconds());
          AtomicReference<CpuMeter.Mark> cpuMark = new AtomicReference<>();
          AtomicReference<PgStats.Snapshot> pgMark = new AtomicReference<>();
          AtomicReference<CpuMeter.Usage> usage = new AtomicReference<>();
          AtomicReference<PgStats.Delta> pgDelta = new AtomicReference<>();
          AtomicReference<AppMetrics.Snapshot> before = new AtomicReference<>();
          AtomicReference<AppMetrics.Snapshot> after = new AtomicReference<>();
          AtomicReference<Map<String, Long>> warned = new AtomicReference<>();
          // Unique per phase: a clientMsgId sent again would be a retry, answered as a duplicate.
          String tag = "s" + interval.toMillis() + "p" + r + "r" + rate;
          SendLoad.Phase phase = load.run(tag, rate, warmup, options.durationSeconds(),
              () -> {
                cpuMark.set(cpu.mark());
                pgMark.set(pg.snapshot());
                before.set(metrics.snapshot());
                warned.set(warnings.snapshot());
              },
              () -> {
                usage.set(cpu.since(cpuMark.get()));
                pgDelta.set(pg.since(pgMark.get()));
                after.set(metrics.snapshot());
                warned.set(KafkaWarnings.minus(warnings.snapshot(), warned.get()));
              });
          Map<String, Samples> stages = new HashMap<>();
          int traced = 0;
          if (tracer != null) {
            SendLoad.sleep(500); // the tracer's consumer and subscriber catch up
            traced = stages(phase, tracer, stages);
          }
          SendRow row = new SendRow(interval, phase, stages, traced, usage.get(), pgDelta.get(), before.get(), after.get(),
              warned.get());
          rows.add(row);
          System.err.println("   " + progressLine(row));
        }
      }
      System.err.println("   stopping the app");
    } finally {
      httpThreads.shutdownNow();
    }
    return new ConfigResult(interval, startSeconds, rows, skipped);
  }

  private static List<FetchBenchmark.Result> runFetch(HttpBenchOptions options, SeqsyncApp app, SeqsyncConfig config,
      HttpClient http, CpuMeter cpu, PgStats pg, Map<String, String> facts) {
    FetchBenchmark fetch = new FetchBenchmark(options.fetchConversations(), options.fetchMessages(), options.fetchClients());
    List<String> tokens = new ArrayList<>();
    for (int k = 0; k < options.fetchConversations(); k++) {
      tokens.add(app.tokens().mint(FetchBenchmark.userA(k), "bench", TOKEN_TTL));
    }
    fetch.tokens(tokens);
    System.err.printf("   fetch: preloading %,d conversations x %,d messages through the commands topic%n",
        options.fetchConversations(), options.fetchMessages());
    double preload = fetch.preload(app.stack().kafkaBootstrapServers(), Topics.from(config.kafka()).commands(),
        app.stack().postgresJdbcUrl(), app.stack().postgresUser(), app.stack().postgresPassword());
    facts.put("fetch.preload", String.format(Locale.ROOT, "%,d messages sequenced and stored in PostgreSQL in %.1f s",
        (long) options.fetchConversations() * options.fetchMessages(), preload));
    System.err.printf("   preloaded in %.1f s%n", preload);
    List<FetchBenchmark.Result> results = new ArrayList<>();
    // HTTP, then JDBC, then HTTP again: the JIT keeps compiling the HTTP path for minutes on two
    // busy cores, so the second HTTP pass is the fairer comparison; both are reported.
    System.err.printf("   fetch over HTTP: %d clients, %d s warm-up + %d s measured%n", options.fetchClients(),
        options.fetchWarmupSeconds(), options.fetchDurationSeconds());
    results.add(fetch.http("HTTP, first pass", http, app.httpPort(), options.fetchWarmupSeconds(),
        options.fetchDurationSeconds(), cpu, pg));
    System.err.println("   " + fetchLine(results.get(results.size() - 1)));
    int shortWarmup = Math.min(3, options.fetchWarmupSeconds());
    System.err.printf("   fetch over JDBC: %d threads, %d s warm-up + %d s measured%n", options.fetchClients(),
        shortWarmup, options.fetchDurationSeconds());
    results.add(fetch.jdbc("JDBC", app.stack().postgresJdbcUrl(), app.stack().postgresUser(),
        app.stack().postgresPassword(), shortWarmup, options.fetchDurationSeconds(), cpu, pg));
    System.err.println("   " + fetchLine(results.get(results.size() - 1)));
    System.err.printf("   fetch over HTTP again: %d s warm-up + %d s measured%n", shortWarmup,
        options.fetchDurationSeconds());
    results.add(fetch.http("HTTP, second pass", http, app.httpPort(), shortWarmup, options.fetchDurationSeconds(),
        cpu, pg));
    System.err.println("   " + fetchLine(results.get(results.size() - 1)));
    return results;
  }

  /**
   * Splits every measured send that the tracer saw into stages, whatever its answer (a 202's
   * message is sequenced and stored all the same; only its last stage is missing). Returns how
   * many were traced up to the announcement.
   */
  static int stages(SendLoad.Phase phase, SendTracer tracer, Map<String, Samples> stages) {
    STAGES.forEach(stage -> stages.put(stage, new Samples()));
    stages.put(TO_ANNOUNCED, new Samples());
    int traced = 0;
    for (int i = phase.warmupRequests; i < phase.total; i++) {
      SendTracer.Sequenced sequenced = tracer.sequenced(phase.clientMsgId(i));
      if (sequenced == null) {
        continue;
      }
      Long announced = tracer.announcedAt(sequenced.convId(), sequenced.seq());
      if (announced == null) {
        continue;
      }
      traced++;
      stages.get(STAGES.get(0)).add(Math.round(sequenced.producedAt() - phase.dueMs[i]));
      stages.get(STAGES.get(1)).add(sequenced.numberedAt() - sequenced.producedAt());
      stages.get(STAGES.get(2)).add(sequenced.visibleAt() - sequenced.numberedAt());
      stages.get(STAGES.get(3)).add(announced - sequenced.visibleAt());
      stages.get(TO_ANNOUNCED).add(Math.round(announced - phase.dueMs[i]));
      if (phase.status[i] == 200) {
        stages.get(STAGES.get(4)).add(Math.round(phase.answeredMs[i] - announced));
      }
    }
    return traced;
  }

  // ---------------------------------------------------------------- reporting

  private static String progressLine(SendRow row) {
    SendLoad.Phase p = row.phase();
    Samples ok = p.okLatencies();
    return String.format(Locale.ROOT, "%,d/s offered: %,.0f/s answered 200; 200=%,d 202=%,d errors=%,d not-sent=%,d;"
            + " p50 %s p90 %s p99 %s max %s; in flight max %,d%s",
        p.rate, p.okPerSecond(), p.countMeasured(200), p.countMeasured(202), errors(p), p.notSent,
        ms(ok.percentile(50)), ms(ok.percentile(90)), ms(ok.percentile(99)), ms(ok.max()), p.maxInFlight,
        row.warnings() == null || row.warnings().isEmpty() ? "" : "; Kafka warnings " + row.warnings())
        + (row.stages().containsKey(TO_ANNOUNCED) ? String.format(Locale.ROOT, "; traced %,d: due → announced p50 %d ms"
            + " p99 %d ms", row.traced(), row.stages().get(TO_ANNOUNCED).percentile(50),
            row.stages().get(TO_ANNOUNCED).percentile(99)) : "")
        + (p.firstError == null ? "" : "; first error: " + abbreviate(p.firstError));
  }

  private static String fetchLine(FetchBenchmark.Result r) {
    return String.format(Locale.ROOT, "%s: %,.0f pages/s, p50 %s p99 %s, failures %,d%s", r.label(), r.pagesPerSecond(),
        ms(r.latencies().percentile(50)), ms(r.latencies().percentile(99)), r.failures(),
        r.firstFailure() == null ? "" : " (" + abbreviate(r.firstFailure()) + ")");
  }

  static int errors(SendLoad.Phase p) {
    int errors = p.exceptions;
    for (int i = p.warmupRequests; i < p.total; i++) {
      errors += p.status[i] != 0 && p.status[i] != 200 && p.status[i] != 202 ? 1 : 0;
    }
    // exceptions of warm-up requests are counted too: they are rare and worth seeing
    return errors;
  }

  private static void report(HttpBenchOptions options, List<ConfigResult> configs, List<FetchBenchmark.Result> fetches,
      Map<String, String> facts, double seconds) {
    StringBuilder out = new StringBuilder();
    out.append(String.format(Locale.ROOT, "Run %s UTC, %.0f s in all. Machine: %d cores (nproc), %s RAM, Java %s (%s), %s %s.%n",
        DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").format(Instant.now().atZone(ZoneOffset.UTC)), seconds,
        Runtime.getRuntime().availableProcessors(), memory(), System.getProperty("java.version"),
        System.getProperty("java.vm.name"), System.getProperty("os.name"), System.getProperty("os.version")));
    out.append(String.format(Locale.ROOT, "Options: %s. PostgreSQL %s (synchronous_commit=%s, fsync=%s, shared_buffers=%s),"
            + " app pool postgres.pool-size=%s, http.reply-budget=%s, projector.max-poll-records=%s.%n%n",
        optionsLine(options), facts.get("pg.server_version"), facts.get("pg.synchronous_commit"), facts.get("pg.fsync"),
        facts.get("pg.shared_buffers"), facts.get("postgres.pool-size"), facts.get("http.reply-budget"),
        facts.get("projector.max-poll-records")));

    out.append("Send (open loop; latency from each request's due time to its 200):\n\n");
    out.append("| commit interval | offered/s | 200/s achieved | measured | 200 | 202 | errors | not sent | p50 | p90 | p99 | max"
        + " | p99 of all answers | max in flight | other processes' CPU |\n");
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (ConfigResult config : configs) {
      for (SendRow row : config.rows()) {
        SendLoad.Phase p = row.phase();
        Samples ok = p.okLatencies();
        out.append(String.format(Locale.ROOT,
            "| %s | %,d | %,.0f | %,d | %,d | %,d | %,d | %,d | %s | %s | %s | %s | %s | %,d | %.2f cores |%n",
            HttpBenchOptions.format(config.commitInterval()), p.rate, p.okPerSecond(), p.measured(), p.countMeasured(200),
            p.countMeasured(202), errors(p), p.notSent, ms(ok.percentile(50)), ms(ok.percentile(90)),
            ms(ok.percentile(99)), ms(ok.max()), ms(p.allLatencies().percentile(99)), p.maxInFlight,
            row.cpu() == null ? 0.0 : row.cpu().get("other processes")));
      }
      for (int rate : config.skipped()) {
        out.append(String.format(Locale.ROOT, "| %s | %,d | not run: the rate before was not sustained | | | | | | | | | | | | |%n",
            HttpBenchOptions.format(config.commitInterval()), rate));
      }
    }
    out.append('\n');

    if (options.breakdown()) {
      out.append("Where a send's time goes (ms, p50 / p99 of every measured send seen on the events topic and announced,"
          + " 200 or 202; announced → 200 of the 200s only; epoch-ms clocks of this JVM):\n\n");
      out.append("| commit interval | offered/s | traced |");
      STAGES.forEach(stage -> out.append(' ').append(stage).append(" |"));
      out.append(' ').append(TO_ANNOUNCED).append(" |");
      out.append('\n').append("|---|---:|---:|");
      STAGES.forEach(stage -> out.append("---:|"));
      out.append("---:|");
      out.append('\n');
      for (ConfigResult config : configs) {
        for (SendRow row : config.rows()) {
          out.append(String.format(Locale.ROOT, "| %s | %,d | %,d |", HttpBenchOptions.format(config.commitInterval()),
              row.phase().rate, row.traced()));
          for (String stage : Stream.concat(STAGES.stream(), Stream.of(TO_ANNOUNCED)).toList()) {
            Samples samples = row.stages().get(stage);
            out.append(samples == null || samples.size() == 0 ? " - |"
                : String.format(Locale.ROOT, " %d / %d |", samples.percentile(50), samples.percentile(99)));
          }
          out.append('\n');
        }
      }
      out.append('\n');
    }

    out.append("Inside the app during each measured window (from its meters; Kafka's averages are over their last"
        + " 30-60 s):\n\n");
    out.append("| commit interval | offered/s | server time of a 200 send | ingress produce latency | projector batches/s"
        + " | events per batch | batch poll→commit | PG transactions per 200 |\n");
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (ConfigResult config : configs) {
      for (SendRow row : config.rows()) {
        out.append(insideLine(config, row)).append('\n');
      }
    }
    out.append("\nThe sequencer's stream thread in the same windows:\n\n");
    out.append("| commit interval | offered/s | commands processed/s | polls/s | records per poll | commits/s"
        + " | commit latency | commitTransaction | time in commit | produce retries/s |\n");
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (ConfigResult config : configs) {
      for (SendRow row : config.rows()) {
        out.append(sequencerLine(config, row)).append('\n');
      }
    }
    out.append('\n');

    out.append("CPU in cores during each measured window (2 cores = everything):\n\n");
    out.append("| phase |");
    CpuMeter.GROUPS.forEach(group -> out.append(' ').append(group).append(" |"));
    out.append(" total |\n|---|");
    CpuMeter.GROUPS.forEach(group -> out.append("---:|"));
    out.append("---:|\n");
    for (ConfigResult config : configs) {
      for (SendRow row : config.rows()) {
        out.append(cpuLine("send " + HttpBenchOptions.format(config.commitInterval()) + " " + row.phase().rate + "/s",
            row.cpu())).append('\n');
      }
    }
    for (FetchBenchmark.Result fetch : fetches) {
      out.append(cpuLine("fetch, " + fetch.label(), fetch.cpu())).append('\n');
    }
    out.append('\n');

    if (fetches.size() == 3) {
      out.append(String.format(Locale.ROOT, "Fetch (%d closed-loop clients, pages of %d of %d conversations x %d messages;"
              + " %s):%n%n", options.fetchClients(), FetchBenchmark.PAGE, options.fetchConversations(),
          options.fetchMessages(), facts.getOrDefault("fetch.preload", "")));
      out.append("| path | pages/s | p50 | p90 | p99 | max | failures | PG transactions per page |\n");
      out.append("|---|---:|---:|---:|---:|---:|---:|---:|\n");
      for (FetchBenchmark.Result r : fetches) {
        Samples l = r.latencies();
        out.append(String.format(Locale.ROOT, "| %s | %,.0f | %s | %s | %s | %s | %,d | %.2f |%n",
            r.label().startsWith("HTTP") ? "HTTP `GET .../messages?after=X&limit=50` (" + r.label().substring(6) + ")"
                : "JDBC, the same statement",
            r.pagesPerSecond(), ms(l.percentile(50)), ms(l.percentile(90)), ms(l.percentile(99)), ms(l.max()),
            r.failures(), r.pages() == 0 ? 0.0 : (double) r.pg().commits() / r.pages()));
      }
      double jdbc = fetches.get(1).pagesPerSecond();
      out.append(String.format(Locale.ROOT, "%nHTTP / JDBC throughput: %.0f%% (second HTTP pass; first pass %.0f%%;"
          + " goal: at least 50%%).%n", 100 * fetches.get(2).pagesPerSecond() / jdbc,
          100 * fetches.get(0).pagesPerSecond() / jdbc));
    }
    System.out.print(out);
    System.out.flush();
  }

  private static String insideLine(ConfigResult config, SendRow row) {
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
        HttpBenchOptions.format(config.commitInterval()), p.rate,
        sends == 0 ? "-" : String.format(Locale.ROOT, "%.1f ms", 1000 * sendSeconds / sends),
        b.get("jmx:ingress-producer:request-latency-avg"), batches / seconds, batches == 0 ? 0 : records / batches,
        batches == 0 ? 0 : 1000 * batchSeconds / batches,
        p.okInWindow == 0 ? "-" : String.format(Locale.ROOT, "%.2f", (double) row.pg().commits() / p.okInWindow));
  }

  private static String sequencerLine(ConfigResult config, SendRow row) {
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
        HttpBenchOptions.format(config.commitInterval()), row.phase().rate, processed / seconds, polls / seconds,
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
            + " commit intervals %s, %,d direct conversations, at most %,d requests in flight, %d partitions",
        o.rates(), o.durationSeconds(), o.warmupSeconds(),
        o.commitIntervals().stream().map(HttpBenchOptions::format).toList(), o.conversations(), o.connections(),
        o.partitions());
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

  private static String abbreviate(String text) {
    return text.length() <= 200 ? text : text.substring(0, 200) + "...";
  }

  static void quietLogs() {
    if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
      for (String name : List.of("io.zonky", "org.eclipse.jetty", "io.javalin", "redis", "com.zaxxer", "org.jdbi",
          "org.apache.kafka", "kafka", "io.seqsync")) {
        context.getLogger(name).setLevel(Level.WARN);
      }
    }
  }

  static java.util.concurrent.ThreadFactory named(String prefix) {
    AtomicInteger count = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, prefix + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }

  static void deleteTree(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> {
        try {
          Files.deleteIfExists(path);
        } catch (IOException e) {
          // best effort
        }
      });
    } catch (IOException e) {
      System.err.println("  (could not delete " + root + ": " + e.getMessage() + ")");
    }
  }

}
