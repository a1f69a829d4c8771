package io.seqsync.bench.http;

import io.seqsync.bench.CliOptions;
import java.util.Map;
import java.util.Set;

/** The knobs of the lane benchmark: {@code --name=value}, else the system property {@code bench.name}, else the default. */
record LaneBenchOptions(
    int conversations,
    int messages,
    int devices,
    int screenRate,
    int floodClients,
    int rudePauseMillis,
    int warmupSeconds,
    int rounds,
    int durationSeconds,
    int quietWaitSeconds,
    Map<String, String> config) {

  static final String USAGE = """
      usage: LaneBenchmark [--conversations=200] [--messages=1000] [--devices=10] [--screen-rate=300]
                           [--flood-clients=128] [--rude-pause-ms=5] [--warmup-s=15] [--rounds=3] [--duration-s=5] [--quiet-wait-s=5]
                           [--config=fetch.paging.concurrency=2,...]
        (or the same as system properties: -Dbench.flood-clients=128 ...)
        --conversations x --messages: the history, written straight into PostgreSQL.
        --devices: tokens per conversation; every request takes a random one, so no device nears its rate limit.
        --screen-rate: first-screen fetches a second (GET .../messages?last=20, open loop), measured alone and under the floods.
        --flood-clients: closed-loop history pages (before=S and after=A&until=B, limit 50): a polite flood
          (after a 503 a client waits as long as Retry-After says) and a rude one (it waits only --rude-pause-ms).
        --rounds x --duration-s: each round measures the three (alone, polite flood, rude flood) for duration-s each.
        --config: app settings (README's properties) over the defaults, to measure other lane sizes.""";

  private static final Set<String> NAMES = Set.of("conversations", "messages", "devices", "screen-rate",
      "flood-clients", "rude-pause-ms", "warmup-s", "rounds", "duration-s", "quiet-wait-s", "config");

  static LaneBenchOptions parse(String[] args) {
    Map<String, String> given = CliOptions.parse(args, NAMES);
    LaneBenchOptions options = new LaneBenchOptions(
        HttpBenchOptions.positive(given, "conversations", 200),
        HttpBenchOptions.positive(given, "messages", 1_000),
        HttpBenchOptions.positive(given, "devices", 10),
        HttpBenchOptions.positive(given, "screen-rate", 300),
        HttpBenchOptions.positive(given, "flood-clients", 128),
        (int) HttpBenchOptions.number(given, "rude-pause-ms", 5),
        (int) HttpBenchOptions.number(given, "warmup-s", 15),
        HttpBenchOptions.positive(given, "rounds", 3),
        HttpBenchOptions.positive(given, "duration-s", 5),
        (int) HttpBenchOptions.number(given, "quiet-wait-s", 5),
        HttpBenchOptions.settings(HttpBenchOptions.value(given, "config").orElse("")));
    if (options.messages < 2 * FetchBenchmark.PAGE) {
      throw new IllegalArgumentException("--messages must be at least " + 2 * FetchBenchmark.PAGE);
    }
    return options;
  }
}
