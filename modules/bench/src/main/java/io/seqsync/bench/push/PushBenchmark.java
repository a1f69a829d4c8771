package io.seqsync.bench.push;

import com.fasterxml.jackson.databind.JsonNode;
import io.seqsync.app.SeqsyncApp;
import io.seqsync.bench.Bench;
import io.seqsync.bench.BenchSupport;
import io.seqsync.bench.InJvmApp;
import io.seqsync.bench.Latencies;
import io.seqsync.bench.OpenLoop;
import io.seqsync.bench.Result;
import io.seqsync.testkit.ApiClient;
import io.seqsync.testkit.StreamClient;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Send → push latency on the whole app in this JVM: {@code receivers} users each hold one
 * {@code /v1/stream} WebSocket; an open-loop load of sends into their direct conversations at
 * fixed rates; latency from each send's due time to the arrival of its push frame; every push
 * counted (missing, duplicates).
 */
@Command(name = "bench-push", mixinStandardHelpOptions = true)
public final class PushBenchmark extends Bench {
  private static final String PADDING = "x".repeat(100);

  @Option(names = "--rates", split = ",", description = "sends/s (default: ${DEFAULT-VALUE})")
  List<Integer> rates = List.of(200, 500);
  @Option(names = "--warmup-s", description = "twice for the first rate (default: ${DEFAULT-VALUE})") int warmupSeconds = 5;
  @Option(names = "--duration-s", description = "default: ${DEFAULT-VALUE}") int durationSeconds = 20;
  @Option(names = "--receivers", description = "default: ${DEFAULT-VALUE}") int receivers = 200;

  /** Per phase, per message: the first push's arrival (nanoTime) and how many pushes came. */
  private final Map<Integer, long[]> arrivals = new ConcurrentHashMap<>();
  private final Map<Integer, AtomicIntegerArray> pushes = new ConcurrentHashMap<>();
  private final AtomicInteger synced = new AtomicInteger();

  public static void main(String[] args) {
    Bench.main(new PushBenchmark(), args);
  }

  @Override
  protected boolean measure() throws Exception {
    Path dir = Files.createTempDirectory("seqsync-bench-push-");
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .executor(Executors.newFixedThreadPool(2, BenchSupport.daemonThreads("bench-push-http-"))).build();
    HttpClient ws = HttpClient.newBuilder()
        .executor(Executors.newFixedThreadPool(2, BenchSupport.daemonThreads("bench-push-ws-"))).build();
    List<StreamClient> sockets = new ArrayList<>();
    boolean ok = true;
    try (SeqsyncApp app = InJvmApp.start(InJvmApp.config(dir, Map.of()))) {
      List<ApiClient> senders = new ArrayList<>();
      for (int k = 0; k < receivers; k++) {
        senders.add(new ApiClient(http, "http://127.0.0.1:" + app.httpPort(),
            app.tokens().mint(2L * k + 1, "bench", Duration.ofHours(2)), Duration.ofSeconds(10)));
        sockets.add(StreamClient.tapped(ws, app.httpPort(), app.tokens().mint(2L * k + 2, "bench", Duration.ofHours(2)),
            this::frame));
      }
      for (long deadline = System.nanoTime() + 30_000_000_000L; synced.get() < receivers && System.nanoTime() < deadline; ) {
        BenchSupport.sleep(50);
      }
      System.err.printf("   %d receivers connected and synced%n", synced.get());
      for (int r = 0; r < rates.size(); r++) {
        ok &= phase(r, senders);
      }
    } finally {
      sockets.forEach(StreamClient::close);
      BenchSupport.deleteTree(dir);
    }
    return ok;
  }

  private void frame(JsonNode frame) {
    long now = System.nanoTime();
    if (frame.path("type").asText().equals("sync")) {
      synced.incrementAndGet();
    } else if (frame.path("type").asText().equals("message") && frame.path("mode").asText().equals("push")) {
      String[] id = frame.path("message").path("clientMsgId").asText("").split("-"); // p<phase>-<i>
      AtomicIntegerArray counts = id.length == 2 ? pushes.get(Integer.parseInt(id[0].substring(1))) : null;
      if (counts != null && counts.getAndIncrement(Integer.parseInt(id[1])) == 0) {
        arrivals.get(Integer.parseInt(id[0].substring(1)))[Integer.parseInt(id[1])] = now;
      }
    }
  }

  /** One rate; whether every accepted send was pushed exactly once. */
  private boolean phase(int r, List<ApiClient> senders) {
    int rate = rates.get(r);
    int warmup = rate * (r == 0 ? 2 * warmupSeconds : warmupSeconds);
    int total = warmup + rate * durationSeconds;
    long[] due = new long[total];
    int[] status = new int[total];
    arrivals.put(r, new long[total]);
    pushes.put(r, new AtomicIntegerArray(total));
    Histogram post = Latencies.histogram();
    AtomicInteger answered = new AtomicInteger();
    System.err.printf("   rate %d/s: %d messages (%d warm-up)%n", rate, total, warmup);
    OpenLoop.run(rate, 0, total, (i, dueAt) -> {
      int index = (int) i;
      due[index] = dueAt;
      int k = index % senders.size();
      senders.get(k).sendText("d:" + (2L * k + 1) + ":" + (2L * k + 2), "p" + r + "-" + i, "push " + i + " " + PADDING)
          .whenComplete((response, error) -> {
            status[index] = error == null ? response.status() : -1;
            if (index >= warmup && status[index] == 200) {
              Latencies.record(post, System.nanoTime() - dueAt);
            }
            answered.incrementAndGet();
          });
    });
    for (long deadline = System.nanoTime() + 20_000_000_000L; answered.get() < total && System.nanoTime() < deadline; ) {
      BenchSupport.sleep(20);
    }
    AtomicIntegerArray counts = pushes.get(r);
    for (long deadline = System.nanoTime() + 15_000_000_000L; System.nanoTime() < deadline; BenchSupport.sleep(50)) {
      boolean all = true;
      for (int i = 0; i < total && all; i++) {
        all = !accepted(status[i]) || counts.get(i) > 0;
      }
      if (all) {
        break;
      }
    }
    BenchSupport.sleep(1_000); // late duplicates
    Histogram push = Latencies.histogram();
    int acceptedCount = 0;
    int missing = 0;
    int duplicates = 0;
    for (int i = 0; i < total; i++) {
      acceptedCount += accepted(status[i]) ? 1 : 0;
      missing += accepted(status[i]) && counts.get(i) == 0 ? 1 : 0;
      duplicates += Math.max(0, counts.get(i) - 1);
      if (i >= warmup && counts.get(i) > 0) {
        Latencies.record(push, arrivals.get(r)[i] - due[i]);
      }
    }
    rows.add(Result.row("rate", rate, "sent", total, "accepted", acceptedCount, "missing", missing, "duplicates",
        duplicates, "push", Latencies.summary(push), "post200", Latencies.summary(post)));
    System.err.println("   " + rows.get(rows.size() - 1));
    return missing == 0 && duplicates == 0;
  }

  /** 200: committed; 202: in Kafka, not committed within the reply budget: it will be pushed. */
  private static boolean accepted(int status) {
    return status == 200 || status == 202;
  }
}
