package io.seqsync.bench.http;

import io.seqsync.bench.BenchSupport;
import static io.seqsync.bench.http.HttpReport.abbreviate;
import static io.seqsync.bench.http.HttpReport.errors;
import static io.seqsync.bench.http.HttpReport.ms;
import static io.seqsync.bench.http.SendStages.TO_ANNOUNCED;

import io.seqsync.app.SeqsyncApp;
import io.seqsync.config.ConfigLoader;
import io.seqsync.config.LimitsSettings;
import io.seqsync.config.SeqsyncConfig;
import io.seqsync.events.Topics;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One configuration of the HTTP benchmark (one {@code sequencer.commit-interval}): the app started
 * on its own data dir, the fetch passes if asked, then an open-loop send phase per offered rate.
 */
final class ConfigurationRun {
  static final Duration TOKEN_TTL = Duration.ofHours(2);

  /** One send phase with what was measured around it. */
  record SendRow(Duration commitInterval, SendLoad.Phase phase, Map<String, Samples> stages, int traced,
      CpuMeter.Usage cpu, PgStats.Delta pg, AppMetrics.Snapshot before, AppMetrics.Snapshot after, Map<String, Long> warnings) {
    long warned(String kind) {
      return warnings == null ? 0 : warnings.getOrDefault(kind, 0L);
    }
  }

  /** The same load at one rate against {@link ProduceReference}, run just before the app's phase at that rate. */
  record ReferenceRow(SendLoad.Phase phase, CpuMeter.Usage cpu) {}

  /**
   * One configuration: its send rows, the reference's rows (empty unless asked for), the rates it
   * skipped, and how long its start took.
   */
  record Result(Duration commitInterval, boolean encrypted, double startSeconds, List<SendRow> rows,
      List<ReferenceRow> references, List<Integer> skipped) {
    /** The configuration's name in the report: its commit interval, and "plain" without content encryption. */
    String label() {
      return HttpBenchOptions.format(commitInterval) + (encrypted ? "" : " plain");
    }
  }

  private ConfigurationRun() {}

  /**
   * Starts the app on {@code dataDir} with {@code interval}, runs the fetch passes into
   * {@code fetches} if {@code fetch}, then a send phase per rate; what it learns of the stack goes
   * into {@code facts}.
   */
  static Result run(HttpBenchOptions options, KafkaWarnings warnings, Path dataDir, Duration interval, boolean encrypted,
      boolean fetch,
      List<FetchBenchmark.Result> fetches, Map<String, String> facts) {
    CpuMeter cpu = new CpuMeter(dataDir.toString());
    if (options.quietWaitSeconds() > 0) {
      double others = cpu.awaitQuiet(options.quietWaitSeconds());
      if (others >= 0.25) {
        System.err.printf("  (other processes still use %.2f cores; running anyway)%n", others);
      }
    }
    String label = "sequencer.commit-interval=" + HttpBenchOptions.format(interval) + ", crypto.encrypt-content=" + encrypted;
    System.err.printf("== %s: starting the app in %s%n", label, dataDir);
    long starting = System.nanoTime();
    SeqsyncConfig config = appConfig(options, dataDir, interval, encrypted);
    ExecutorService httpThreads = Executors.newFixedThreadPool(2, BenchSupport.daemonThreads("bench-http-"));
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(httpThreads)
        .connectTimeout(Duration.ofSeconds(5)).build();
    List<SendRow> rows = new ArrayList<>();
    List<ReferenceRow> references = new ArrayList<>();
    List<Integer> skipped = new ArrayList<>();
    double startSeconds;
    try (SeqsyncApp app = SeqsyncApp.start(config);
        PgStats pg = new PgStats(app.stack().postgresJdbcUrl(), app.stack().postgresUser(),
            app.stack().postgresPassword());
        RawHttpClient rawClient = new RawHttpClient(app.httpPort(), SendLoad.REQUEST_TIMEOUT.toNanos());
        ProduceReference reference = options.reference() && options.send() ? ProduceReference.start(
            app.stack().kafkaBootstrapServers(), options.partitions(), config.http().commandLinger()) : null;
        RawHttpClient referenceClient = reference == null ? null
            : new RawHttpClient(reference.port(), SendLoad.REQUEST_TIMEOUT.toNanos())) {
      startSeconds = (System.nanoTime() - starting) / 1e9;
      System.err.printf("   started in %.1f s; HTTP on port %d%n", startSeconds, app.httpPort());
      for (String setting : List.of("server_version", "synchronous_commit", "fsync", "wal_init_zero", "shared_buffers",
          "max_connections")) {
        facts.putIfAbsent("pg." + setting, pg.setting(setting));
      }
      facts.putIfAbsent("postgres.pool-size", Integer.toString(config.postgres().poolSize()));
      facts.putIfAbsent("http.reply-budget", HttpBenchOptions.format(config.http().replyBudget()));
      facts.putIfAbsent("http.command-linger", HttpBenchOptions.format(config.http().commandLinger()));
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
        fetches.addAll(FetchPasses.run(options, app, config, http, cpu, pg, facts));
      }
      SendLoad load = new SendLoad(options.sendClient().equals("jdk") ? SendLoad.jdk(http, app.httpPort())
          : SendLoad.raw(rawClient), conversations, options.connections());
      SendLoad referenceLoad = referenceClient == null ? null
          : new SendLoad(SendLoad.raw(referenceClient), conversations, options.connections());
      AppMetrics metrics = new AppMetrics(http, app.httpPort());
      Topics topics = Topics.from(config.kafka());
      try (SendTracer tracer = options.breakdown()
          ? new SendTracer(app.stack().kafkaBootstrapServers(), topics) : null) {
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
          // The reference first, so that it never runs while the app still works off a backlog.
          if (referenceLoad != null) {
            references.add(referencePhase(referenceLoad, cpu, tag, rate, warmup, options.durationSeconds()));
          }
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
            BenchSupport.sleep(500); // the tracer's consumer and subscriber catch up
            traced = SendStages.split(phase, tracer, stages);
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
    return new Result(interval, encrypted, startSeconds, rows, references, skipped);
  }

  private static ReferenceRow referencePhase(SendLoad load, CpuMeter cpu, String tag, int rate, int warmup, int duration) {
    AtomicReference<CpuMeter.Mark> mark = new AtomicReference<>();
    AtomicReference<CpuMeter.Usage> usage = new AtomicReference<>();
    SendLoad.Phase phase = load.run("ref-" + tag, rate, warmup, duration, () -> mark.set(cpu.mark()),
        () -> usage.set(cpu.since(mark.get())));
    Samples ok = phase.okLatencies();
    System.err.printf(Locale.ROOT, "   reference %,d/s: %,.0f/s answered 200; p50 %s p99 %s max %s%s%n", rate,
        phase.okPerSecond(), ms(ok.percentile(50)), ms(ok.percentile(99)), ms(ok.max()),
        phase.firstError == null ? "" : "; first error: " + abbreviate(phase.firstError));
    return new ReferenceRow(phase, usage.get());
  }

  /** The app's configuration: embedded stack on free ports, the commit interval and partitions asked for. */
  private static SeqsyncConfig appConfig(HttpBenchOptions options, Path dataDir, Duration interval, boolean encrypted) {
    Map<String, String> settings = new HashMap<>(Map.of(
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
    // Its 200 tokens stand for 200 devices paging 25-50 times a second each, far beyond what a
    // person does: above the default bucket (50/s), a fast pass got 429s. The bucket is still
    // checked on every page, so its cost is in the figures.
    settings.put("fetch.rate", "100000");
    settings.put("fetch.burst", "100000");
    // Its devices send and connect far faster than people: the abuse limits raised likewise.
    settings.putAll(LimitsSettings.raisedTo(100_000));
    settings.put("crypto.encrypt-content", Boolean.toString(encrypted));
    settings.putAll(options.config());
    return ConfigLoader.of(settings);
  }

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
}
