package io.seqsync.bench.http;

import io.seqsync.bench.CliOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The knobs of the HTTP benchmark: {@code --name=value} (or {@code --name value}) on the command
 * line, else the system property {@code bench.name}, else the default.
 */
record HttpBenchOptions(
    List<Integer> rates,
    int warmupSeconds,
    int durationSeconds,
    List<Duration> commitIntervals,
    int conversations,
    int connections,
    String sendClient,
    int partitions,
    boolean breakdown,
    boolean reference,
    boolean stopWhenSaturated,
    boolean send,
    boolean fetch,
    int fetchConversations,
    int fetchMessages,
    int fetchClients,
    int fetchWarmupSeconds,
    int fetchDurationSeconds,
    int quietWaitSeconds,
    Optional<Path> dir,
    Map<String, String> config,
    List<Boolean> encryption) {

  static final String USAGE = """
      usage: HttpBenchmark [--rates=100,200,500,1000,2000,5000] [--warmup-s=5] [--duration-s=20]
                           [--commit-intervals=20ms,10ms] [--conversations=1000] [--connections=1024]
                           [--send-client=raw] [--partitions=6] [--breakdown=true] [--reference=true]
                           [--stop-when-saturated=true] [--send=true] [--fetch=true] [--fetch-conversations=200] [--fetch-messages=500] [--fetch-clients=64]
                           [--fetch-warmup-s=8] [--fetch-duration-s=10] [--quiet-wait-s=5] [--dir=PATH]
                           [--config=sequencer.stream-threads=2,...] [--encryption=on]
        (or the same as system properties: -Dbench.rates=500,1000 ...)
        --rates: offered send rates (requests/s), each run open-loop for warmup-s + duration-s.
        --commit-intervals: one app start per value of sequencer.commit-interval; every rate runs on each.
        --connections: the most requests in flight (so HTTP/1.1 connections) of the send load generator.
        --send-client: raw (a lean HTTP/1.1 client on one selector thread) or jdk (java.net.http.HttpClient).
        --breakdown: also read the events topic and the Redis announcements to split send latency.
        --reference: after each rate, the same load against a server that only produces each send to
                     Kafka and answers once it is acknowledged (ProduceReference): the floor, same run.
        --stop-when-saturated: skip the higher rates of a configuration once one is not sustained.
        --send=false skips the send phases (for profiling the fetch alone).
        --fetch: the fetch benchmark (HTTP next to JDBC), on the first configuration, before its sends.
        --quiet-wait-s: before each app start, wait up to this long for other processes to use under 1/4 core.
        --dir keeps the data there; by default a temporary directory is used and deleted.
        --config: app settings (README's properties) over the benchmark's, to measure other settings.
        --encryption: on, off, or on,off (each commit interval runs once per value: content sealed or
                      not, crypto.encrypt-content, to measure what sealing costs in the same run).""";

  private static final Set<String> NAMES = Set.of("rates", "warmup-s", "duration-s", "commit-intervals", "conversations",
      "connections", "send-client", "partitions", "breakdown", "reference", "stop-when-saturated", "send", "fetch", "fetch-conversations", "fetch-messages",
      "fetch-clients", "fetch-warmup-s", "fetch-duration-s", "quiet-wait-s", "dir", "config", "encryption");

  static HttpBenchOptions parse(String[] args) {
    Map<String, String> given = CliOptions.parse(args, NAMES);
    HttpBenchOptions options = new HttpBenchOptions(
        value(given, "rates").map(text -> Arrays.stream(text.split(",")).map(String::trim)
            .map(rate -> positive("rates", rate)).toList()).orElse(List.of(100, 200, 500, 1000, 2000, 5000)),
        (int) number(given, "warmup-s", 5),
        positive(given, "duration-s", 20),
        value(given, "commit-intervals").map(text -> Arrays.stream(text.split(",")).map(String::trim)
            .map(HttpBenchOptions::duration).toList()).orElse(List.of(Duration.ofMillis(20), Duration.ofMillis(10))),
        positive(given, "conversations", 1_000),
        positive(given, "connections", 1_024),
        value(given, "send-client").orElse("raw"),
        positive(given, "partitions", 6),
        bool(given, "breakdown", true),
        bool(given, "reference", true),
        bool(given, "stop-when-saturated", true),
        bool(given, "send", true),
        bool(given, "fetch", true),
        positive(given, "fetch-conversations", 200),
        positive(given, "fetch-messages", 500),
        positive(given, "fetch-clients", 64),
        (int) number(given, "fetch-warmup-s", 8),
        positive(given, "fetch-duration-s", 10),
        (int) number(given, "quiet-wait-s", 5),
        value(given, "dir").map(Path::of),
        settings(value(given, "config").orElse("")),
        Arrays.stream(value(given, "encryption").orElse("on").split(",")).map(String::trim)
            .map(HttpBenchOptions::onOff).toList());
    if (options.rates.isEmpty() || options.commitIntervals.isEmpty()) {
      throw new IllegalArgumentException("--rates and --commit-intervals need at least one value");
    }
    if (!Set.of("raw", "jdk").contains(options.sendClient)) {
      throw new IllegalArgumentException("--send-client is raw or jdk, got " + options.sendClient);
    }
    if (options.fetchMessages < FetchBenchmark.PAGE) {
      throw new IllegalArgumentException("--fetch-messages must be at least " + FetchBenchmark.PAGE);
    }
    return options;
  }

  /** {@code --config}'s {@code name=value,name=value}, in order. */
  static Map<String, String> settings(String text) {
    Map<String, String> settings = new LinkedHashMap<>();
    for (String pair : text.split(",")) {
      if (pair.isBlank()) {
        continue;
      }
      int eq = pair.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("--config takes name=value pairs, got " + pair);
      }
      settings.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
    }
    return settings;
  }

  /** {@code 100ms}, {@code 1s}. */
  static Duration duration(String text) {
    String lower = text.toLowerCase(Locale.ROOT);
    try {
      if (lower.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(lower.substring(0, lower.length() - 2)));
      }
      if (lower.endsWith("s")) {
        return Duration.ofSeconds(Long.parseLong(lower.substring(0, lower.length() - 1)));
      }
    } catch (NumberFormatException e) {
      // answered below
    }
    throw new IllegalArgumentException("a duration is like 100ms or 1s, got " + text);
  }

  static String format(Duration duration) {
    return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + "s" : duration.toMillis() + "ms";
  }

  static Optional<String> value(Map<String, String> given, String name) {
    String value = given.getOrDefault(name, System.getProperty("bench." + name));
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
  }

  private static boolean bool(Map<String, String> given, String name, boolean fallback) {
    Optional<String> value = value(given, name);
    if (value.isEmpty()) {
      return fallback;
    }
    return switch (value.get().toLowerCase(Locale.ROOT)) {
      case "true", "yes", "1" -> true;
      case "false", "no", "0" -> false;
      default -> throw new IllegalArgumentException("--" + name + " must be true or false, got " + value.get());
    };
  }

  static long number(Map<String, String> given, String name, long fallback) {
    Optional<String> value = value(given, name);
    try {
      long parsed = value.isPresent() ? Long.parseLong(value.get().replace("_", "")) : fallback;
      if (parsed < 0 || parsed > Integer.MAX_VALUE) {
        throw new NumberFormatException();
      }
      return parsed;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + name + " must be a non-negative integer, got " + value.orElse(""));
    }
  }

  static int positive(Map<String, String> given, String name, int fallback) {
    long value = number(given, name, fallback);
    if (value == 0) {
      throw new IllegalArgumentException("--" + name + " must be positive");
    }
    return (int) value;
  }

  private static int positive(String name, String text) {
    try {
      int value = Integer.parseInt(text.replace("_", ""));
      if (value > 0) {
        return value;
      }
    } catch (NumberFormatException e) {
      // answered below
    }
    throw new IllegalArgumentException("--" + name + " takes positive integers, got " + text);
  }

  private static boolean onOff(String text) {
    if (!text.equals("on") && !text.equals("off")) {
      throw new IllegalArgumentException("--encryption takes on, off or on,off, got " + text);
    }
    return text.equals("on");
  }
}
