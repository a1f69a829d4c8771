package io.seqsync.bench;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The knobs of the sequencer benchmark. Each is {@code --name=value} (or {@code --name value}) on
 * the command line, else the system property {@code bench.name}, else the default.
 */
record BenchOptions(
    int commands,
    int conversations,
    int partitions,
    int threads,
    int repeats,
    int warmupPairs,
    long commitIntervalMs,
    long quietWaitSeconds,
    Optional<Path> dir) {

  static final String USAGE = """
      usage: SequencerBenchmark [--commands=200000] [--conversations=1000] [--partitions=6] [--threads=1]
                                [--repeats=3] [--warmup=1] [--commit-interval-ms=100] [--quiet-wait-s=60] [--dir=PATH]
        (or the same as system properties: -Dbench.commands=200000 ...)
        --warmup: untimed rounds of every application over the same commands before the timed ones.
        --quiet-wait-s: before each timed run, wait up to this long for other processes to use under 1/4 core (0: never).
        --dir keeps the broker's data there; by default a temporary directory is used and deleted.""";

  private static final Set<String> NAMES =
      Set.of("commands", "conversations", "partitions", "threads", "repeats", "warmup", "commit-interval-ms", "quiet-wait-s",
      "dir");

  static BenchOptions parse(String[] args) {
    Map<String, String> given = CliOptions.parse(args, NAMES);
    int commands = positive(given, "commands", 200_000);
    BenchOptions options = new BenchOptions(
        commands,
        positive(given, "conversations", 1_000),
        positive(given, "partitions", 6),
        positive(given, "threads", 1),
        positive(given, "repeats", 3),
        (int) Math.min(Integer.MAX_VALUE, number(given, "warmup", 1)),
        positive(given, "commit-interval-ms", 100),
        number(given, "quiet-wait-s", 60),
        value(given, "dir").map(Path::of));
    if (options.commands < options.conversations) {
      throw new IllegalArgumentException("--commands must be at least --conversations");
    }
    return options;
  }

  private static Optional<String> value(Map<String, String> given, String name) {
    String value = given.getOrDefault(name, System.getProperty("bench." + name));
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
  }

  private static long number(Map<String, String> given, String name, long fallback) {
    Optional<String> value = value(given, name);
    try {
      long parsed = value.isPresent() ? Long.parseLong(value.get().replace("_", "")) : fallback;
      if (parsed < 0) {
        throw new NumberFormatException();
      }
      return parsed;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + name + " must be a non-negative integer, got " + value.orElse(""));
    }
  }

  private static int positive(Map<String, String> given, String name, int fallback) {
    long value = number(given, name, fallback);
    if (value == 0 || value > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("--" + name + " must be positive");
    }
    return (int) value;
  }
}
