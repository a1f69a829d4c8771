package io.seqsync.bench.peer;

import io.seqsync.bench.CliOptions;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The knobs of scripts/bench-peer: {@code --name=value}; the script passes the servers' places and ports. */
record PeerOptions(
    List<Integer> rates,
    int warmupSeconds,
    int durationSeconds,
    int conversations,
    int catchupMessages,
    int fillRate,
    int fetchers,
    int crashRate,
    int crashSeconds,
    int killAfterSeconds,
    Set<String> measurements,
    List<String> servers,
    Path dir,
    Path appJar,
    Ports seqsyncPorts,
    Path ejabberdctl,
    int xmppPort,
    String ejabberdDatabase,
    String seqsyncDatabase) {

  /** seqsync's HTTP, embedded Kafka and embedded Redis ports. */
  record Ports(int http, int kafka, int redis) {}

  static final String USAGE = """
      usage: PeerBenchmark --dir=PATH --app-jar=PATH --ejabberdctl=PATH
                           [--rates=200,500,1000,2000,3000,5000] [--warmup-s=5] [--duration-s=20] [--conversations=1000]
                           [--catchup-messages=100000] [--fill-rate=2000] [--fetchers=8]
                           [--crash-rate=1000] [--crash-s=40] [--kill-after-s=10] [--measurements=live,catchup,crash]
                           [--servers=seqsync,ejabberd] [--seqsync-ports=18310,19310,16510] [--xmpp-port=15222]
                           [--ejabberd-db=ejabberd_bench] [--seqsync-db=seqsync_bench]
        --rates: offered rates of the live measurement, each warmup-s + duration-s on each server.
        --catchup-messages: sent over the conversations while the receiver is offline, at --fill-rate;
                            seqsync's receiver then pages them with --fetchers requests in parallel.
        --crash-*: a stream at crash-rate for crash-s; each server is killed (SIGKILL) after kill-after-s and restarted.
        --measurements: which of live, catchup and crash to run; --servers: which servers (both by default).
        Both servers keep their tables in the PostgreSQL on 127.0.0.1:5432, each in its database.""";

  private static final Set<String> NAMES = Set.of("rates", "warmup-s", "duration-s", "conversations", "catchup-messages",
      "fill-rate", "fetchers", "crash-rate", "crash-s", "kill-after-s", "measurements", "dir", "app-jar", "ejabberdctl",
      "servers", "seqsync-ports", "xmpp-port", "ejabberd-db", "seqsync-db");

  static PeerOptions parse(String[] args) {
    Map<String, String> given = CliOptions.parse(args, NAMES);
    List<Integer> ports = numbers(given.getOrDefault("seqsync-ports", "18310,19310,16510"));
    if (ports.size() != 3) {
      throw new IllegalArgumentException("--seqsync-ports takes three ports: HTTP, Kafka, Redis");
    }
    List<String> servers = Arrays.asList(given.getOrDefault("servers", "seqsync,ejabberd").split(","));
    if (servers.isEmpty() || !List.of("seqsync", "ejabberd").containsAll(servers)) {
      throw new IllegalArgumentException("--servers takes seqsync and ejabberd, got " + servers);
    }
    Set<String> measurements = Set.copyOf(Arrays.asList(given.getOrDefault("measurements", "live,catchup,crash").split(",")));
    if (!Set.of("live", "catchup", "crash").containsAll(measurements)) {
      throw new IllegalArgumentException("--measurements takes live, catchup and crash, got " + measurements);
    }
    PeerOptions options = new PeerOptions(numbers(given.getOrDefault("rates", "200,500,1000,2000,3000,5000")),
        number(given, "warmup-s", 5), number(given, "duration-s", 20), number(given, "conversations", 1_000),
        number(given, "catchup-messages", 100_000), number(given, "fill-rate", 2_000), number(given, "fetchers", 8),
        number(given, "crash-rate", 1_000), number(given, "crash-s", 40), number(given, "kill-after-s", 10),
        measurements, servers, required(given, "dir"), required(given, "app-jar"),
        new Ports(ports.get(0), ports.get(1), ports.get(2)), required(given, "ejabberdctl"), number(given, "xmpp-port", 15_222),
        given.getOrDefault("ejabberd-db", "ejabberd_bench"), given.getOrDefault("seqsync-db", "seqsync_bench"));
    if (options.killAfterSeconds >= options.crashSeconds) {
      throw new IllegalArgumentException("--kill-after-s must be below --crash-s");
    }
    return options;
  }

  private static Path required(Map<String, String> given, String name) {
    String value = given.get(name);
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException("--" + name + " is required");
    }
    return Path.of(value);
  }

  private static int number(Map<String, String> given, String name, int fallback) {
    String value = given.get(name);
    try {
      int parsed = value == null ? fallback : Integer.parseInt(value.replace("_", ""));
      if (parsed <= 0) {
        throw new NumberFormatException();
      }
      return parsed;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + name + " must be a positive integer, got " + value);
    }
  }

  private static List<Integer> numbers(String text) {
    try {
      return Arrays.stream(text.split(",")).map(String::trim).map(n -> Integer.parseInt(n.replace("_", ""))).toList();
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("a list of positive integers, got " + text);
    }
  }
}
