package io.seqsync.bench.send;

import io.seqsync.app.SeqsyncApp;
import io.seqsync.bench.Bench;
import io.seqsync.bench.BenchSupport;
import io.seqsync.bench.Cpu;
import io.seqsync.bench.InJvmApp;
import io.seqsync.bench.OpenLoop;
import io.seqsync.bench.Result;
import io.seqsync.bench.Tally;
import io.seqsync.config.SeqsyncConfig;
import io.seqsync.testkit.ApiClient;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Send latency on the whole app in this JVM: an open-loop load of
 * {@code POST /v1/conversations/{convId}/messages} at each offered rate, latency from each
 * request's due time to its {@code 200} (its seq committed), once per
 * {@code sequencer.commit-interval} given (one app start each). Before each rate, the same load
 * against {@link ProduceReference} (produce to Kafka and answer): the floor, in the same run.
 */
@Command(name = "bench-send", mixinStandardHelpOptions = true)
public final class SendBenchmark extends Bench {
  @Option(names = "--rates", split = ",", description = "offered sends/s (default: ${DEFAULT-VALUE})")
  List<Integer> rates = List.of(100, 200, 500, 1000, 2000, 5000);
  @Option(names = "--warmup-s", description = "default: ${DEFAULT-VALUE}") int warmupSeconds = 5;
  @Option(names = "--duration-s", description = "default: ${DEFAULT-VALUE}") int durationSeconds = 20;
  @Option(names = "--commit-intervals", split = ",", description = "sequencer.commit-interval, one app start each"
      + " (default: ${DEFAULT-VALUE})")
  List<String> commitIntervals = List.of("20ms", "10ms");
  @Option(names = "--conversations", description = "default: ${DEFAULT-VALUE}") int conversations = 1_000;
  @Option(names = "--connections", description = "the most requests in flight (default: ${DEFAULT-VALUE})")
  int connections = 1_024;
  @Option(names = "--partitions", description = "default: ${DEFAULT-VALUE}") int partitions = 6;
  @Option(names = "--reference", negatable = true, defaultValue = "true", fallbackValue = "true", description = "the produce-only floor before each rate"
      + " (default: ${DEFAULT-VALUE})")
  boolean reference = true;
  @Option(names = "--stop-when-saturated", negatable = true, defaultValue = "true", fallbackValue = "true", description = "default: ${DEFAULT-VALUE}")
  boolean stopWhenSaturated = true;
  @Option(names = "--encryption", split = ",", description = "on, off or on,off: crypto.encrypt-content, one app start"
      + " each, what sealing costs in the same run (default: ${DEFAULT-VALUE})")
  List<String> encryption = List.of("on");
  @Option(names = "--config", split = ",", description = "app settings over the benchmark's, name=value")
  Map<String, String> config = new LinkedHashMap<>();

  public static void main(String[] args) {
    Bench.main(new SendBenchmark(), args);
  }

  @Override
  protected boolean measure() throws Exception {
    for (String interval : commitIntervals) {
      for (String sealing : encryption) {
        configuration(interval, !"off".equals(sealing));
      }
    }
    return true;
  }

  // One app start: every rate against one commit interval, content sealed or not.
  private void configuration(String interval, boolean sealed) throws Exception {
    Path dir = Files.createTempDirectory("seqsync-bench-send-");
    Map<String, String> settings = new LinkedHashMap<>(Map.of("kafka.partitions", Integer.toString(partitions),
        "sequencer.commit-interval", interval, "crypto.encrypt-content", Boolean.toString(sealed)));
    settings.putAll(config);
    SeqsyncConfig appConfig = InJvmApp.config(dir, settings);
    String configuration = sealed ? interval : interval + " plain";
    System.err.printf("== sequencer.commit-interval=%s, content %s%n", interval, sealed ? "sealed" : "plain");
    // Two threads complete the client's responses (else a thread per response without a common pool).
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .executor(Executors.newFixedThreadPool(2, BenchSupport.daemonThreads("bench-http-"))).build();
    try (SeqsyncApp app = InJvmApp.start(appConfig);
        ProduceReference floor = reference ? ProduceReference.start(app.stack().kafkaBootstrapServers(), partitions,
            appConfig.http().commandLinger()) : null) {
      List<ApiClient[]> senders = new ArrayList<>();
      for (int k = 0; k < conversations; k++) {
        long a = 2L * k + 1;
        senders.add(new ApiClient[] {client(http, app.httpPort(), app.tokens().mint(a, "bench", Duration.ofHours(2))),
            client(http, app.httpPort(), app.tokens().mint(a + 1, "bench", Duration.ofHours(2)))});
      }
      List<ApiClient[]> referenceSenders = floor == null ? null
          : senders.stream().map(pair -> new ApiClient[] {client(http, floor.port(), null)}).toList();
      for (int r = 0; r < rates.size(); r++) {
        int rate = rates.get(r);
        // The first rate also warms up the JIT, the connections and the stores: twice the warm-up.
        int warmup = r == 0 ? 2 * warmupSeconds : warmupSeconds;
        String tag = "s" + configuration.replace(" ", "-") + "r" + rate;
        if (referenceSenders != null) {
          phase(configuration, "reference", rate, warmup, referenceSenders, "ref-" + tag);
        }
        if (!phase(configuration, "seqsync", rate, warmup, senders, tag) && stopWhenSaturated) {
          break;
        }
      }
    } finally {
      BenchSupport.deleteTree(dir);
    }
  }

  private static ApiClient client(HttpClient http, int port, String token) {
    return new ApiClient(http, "http://127.0.0.1:" + port, token, Duration.ofSeconds(10));
  }

  /** One open-loop phase; whether the rate was sustained (99 % answered 200, 95 % of the rate). */
  private boolean phase(String configuration, String server, int rate, int warmup, List<ApiClient[]> senders, String tag) {
    Tally tally = new Tally();
    Semaphore inFlight = new Semaphore(connections);
    long warmupRequests = (long) rate * warmup;
    long[] cpuAtWindow = new long[2];
    long total = OpenLoop.run(rate, warmup + durationSeconds, 0, (i, due) -> {
      if (i == warmupRequests) {
        cpuAtWindow[0] = Cpu.jvmNanos();
        cpuAtWindow[1] = Cpu.machineNanos();
      }
      ApiClient[] pair = senders.get((int) (i % senders.size()));
      ApiClient sender = pair[(int) (i / senders.size() % pair.length)];
      inFlight.acquireUninterruptibly(); // a backlog beyond the connections: its wait counts in the latency
      sender.sendText(convId(i % senders.size()), tag + "-" + i, "bench message " + i).whenComplete((response, error) -> {
        inFlight.release();
        if (i >= warmupRequests) {
          tally.add(response, error, System.nanoTime() - due);
        }
      });
    });
    double jvmCores = (Cpu.jvmNanos() - cpuAtWindow[0]) / 1e9 / durationSeconds;
    double machineCores = (Cpu.machineNanos() - cpuAtWindow[1]) / 1e9 / durationSeconds;
    inFlight.acquireUninterruptibly(connections); // every answer in
    inFlight.release(connections);
    Map<String, Object> row = Result.row("configuration", configuration, "server", server, "rate", rate);
    row.putAll(tally.summary(durationSeconds));
    row.put("jvmCores", Math.round(jvmCores * 100) / 100.0);
    row.put("machineCores", Math.round(machineCores * 100) / 100.0);
    rows.add(row);
    System.err.println("   " + row);
    long measured = total - warmupRequests;
    return tally.count(200) >= 0.99 * measured;
  }

  private static String convId(long k) {
    long a = 2L * k + 1;
    return "d:" + a + ":" + (a + 1);
  }
}
