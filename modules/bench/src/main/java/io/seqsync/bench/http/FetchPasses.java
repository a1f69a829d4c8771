package io.seqsync.bench.http;

import static io.seqsync.bench.http.HttpReport.abbreviate;
import static io.seqsync.bench.http.HttpReport.ms;

import io.seqsync.app.SeqsyncApp;
import io.seqsync.config.SeqsyncConfig;
import io.seqsync.events.Topics;
import java.net.http.HttpClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The fetch passes of the first configuration: pages of {@link FetchBenchmark#PAGE} over HTTP by
 * closed-loop clients, next to the same statement straight through JDBC, on a preloaded store.
 */
final class FetchPasses {
  private FetchPasses() {}

  /**
   * Preloads the store, then HTTP, JDBC and HTTP again, then HTTP from wrk when it is installed:
   * the results in that order (the report relies on it).
   */
  static List<FetchBenchmark.Result> run(HttpBenchOptions options, SeqsyncApp app, SeqsyncConfig config,
      HttpClient http, CpuMeter cpu, PgStats pg, Map<String, String> facts) {
    FetchBenchmark fetch = new FetchBenchmark(options.fetchConversations(), options.fetchMessages(), options.fetchClients());
    List<String> tokens = new ArrayList<>();
    for (int k = 0; k < options.fetchConversations(); k++) {
      tokens.add(app.tokens().mint(FetchBenchmark.userA(k), "bench", ConfigurationRun.TOKEN_TTL));
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
    if (WrkPass.available()) {
      System.err.printf("   fetch over HTTP from wrk: %d connections, %d s warm-up + %d s measured%n",
          options.fetchClients(), shortWarmup, options.fetchDurationSeconds());
      results.add(fetch.wrk("HTTP, wrk", app.httpPort(), shortWarmup, options.fetchDurationSeconds(), cpu, pg));
      System.err.println("   " + fetchLine(results.get(results.size() - 1)));
    } else {
      System.err.println("   (no wrk here: the pass from wrk is skipped; apt-get install wrk)");
    }
    return results;
  }

  private static String fetchLine(FetchBenchmark.Result r) {
    return String.format(Locale.ROOT, "%s: %,.0f pages/s, p50 %s p99 %s, failures %,d%s", r.label(), r.pagesPerSecond(),
        ms(r.latencies().p50()), ms(r.latencies().p99()), r.failures(),
        r.firstFailure() == null ? "" : " (" + abbreviate(r.firstFailure()) + ")");
  }
}
