package io.seqsync.bench.lanes;

import io.seqsync.app.SeqsyncApp;
import io.seqsync.bench.Bench;
import io.seqsync.bench.BenchSupport;
import io.seqsync.bench.History;
import io.seqsync.bench.InJvmApp;
import io.seqsync.bench.Latencies;
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
import java.util.concurrent.ThreadLocalRandom;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Lane isolation, measured: first-screen fetches ({@code ?last=20}) at a fixed rate (open loop)
 * alone, then while a flood of history paging ({@code before} and {@code after&until} pages)
 * saturates the paging lane, with clients that wait as {@code Retry-After} says (polite) and with
 * clients that come back at once (rude), in rounds of the three, on the whole app in this JVM with
 * its default fetch settings. Requests take random devices' tokens, so that the lanes are measured, not the buckets.
 */
@Command(name = "bench-lanes", mixinStandardHelpOptions = true)
public final class LaneBenchmark extends Bench {
  private static final int PAGE = 50;
  private static final List<String> KINDS = List.of("alone", "polite flood", "rude flood");

  @Option(names = "--conversations", description = "default: ${DEFAULT-VALUE}") int conversations = 200;
  @Option(names = "--messages", description = "per conversation (default: ${DEFAULT-VALUE})") int messages = 1_000;
  @Option(names = "--devices", description = "tokens per user and kind of client (default: ${DEFAULT-VALUE})")
  int devices = 10;
  @Option(names = "--screen-rate", description = "first screens per second (default: ${DEFAULT-VALUE})")
  int screenRate = 300;
  @Option(names = "--flood-clients", description = "default: ${DEFAULT-VALUE}") int floodClients = 128;
  @Option(names = "--rude-pause-ms", description = "a rude client's pause after a 503 (default: ${DEFAULT-VALUE})")
  int rudePauseMillis = 5;
  @Option(names = "--warmup-s", description = "default: ${DEFAULT-VALUE}") int warmupSeconds = 15;
  @Option(names = "--rounds", description = "default: ${DEFAULT-VALUE}") int rounds = 3;
  @Option(names = "--duration-s", description = "each phase (default: ${DEFAULT-VALUE})") int durationSeconds = 5;

  private final List<String> convIds = new ArrayList<>();
  private final List<List<ApiClient>> screens = new ArrayList<>();
  private final List<List<ApiClient>> pagers = new ArrayList<>();

  public static void main(String[] args) {
    Bench.main(new LaneBenchmark(), args);
  }

  @Override
  protected boolean measure() throws Exception {
    Path dir = Files.createTempDirectory("seqsync-bench-lanes-");
    // The defaults of the fetch lanes, the bucket raised: the lanes are measured.
    SeqsyncConfig config = InJvmApp.config(dir, Map.of());
    try (SeqsyncApp app = InJvmApp.start(config)) {
      System.err.printf("   writing %,d x %,d messages%n", conversations, messages);
      new History(conversations, messages).write(app, config);
      // Apart, so that the flood's connections do not queue the first screens client-side.
      HttpClient screenHttp = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      HttpClient floodHttp = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      for (int k = 0; k < conversations; k++) {
        long user = History.userA(k);
        convIds.add("d:" + user + ":" + (user + 1));
        List<ApiClient> s = new ArrayList<>();
        List<ApiClient> p = new ArrayList<>();
        for (int d = 0; d < devices; d++) {
          String base = "http://127.0.0.1:" + app.httpPort();
          s.add(new ApiClient(screenHttp, base, app.tokens().mint(user, "screen-" + d, Duration.ofHours(2)), Duration.ofSeconds(30)));
          p.add(new ApiClient(floodHttp, base, app.tokens().mint(user, "pager-" + d, Duration.ofHours(2)), Duration.ofSeconds(30)));
        }
        screens.add(s);
        pagers.add(p);
      }
      System.err.printf("== warm-up: first screens and a rude flood, %d s%n", warmupSeconds);
      phase("rude flood", warmupSeconds, new Tally(), new Tally());
      Map<String, Tally[]> sums = new LinkedHashMap<>();
      for (int round = 0; round < rounds; round++) {
        // A rotating order: JIT and other processes' load drift over the run, and weigh on every kind alike.
        for (int i = 0; i < KINDS.size(); i++) {
          String kind = KINDS.get((round + i) % KINDS.size());
          Tally[] tallies = sums.computeIfAbsent(kind, key -> new Tally[] {new Tally(), new Tally()});
          phase(kind, durationSeconds, tallies[0], tallies[1]);
          System.err.printf("   round %d %s: first screens p99 %.2f ms%n", round + 1, kind,
              Latencies.ms(tallies[0].latencies(), 99));
        }
      }
      double alone = Latencies.ms(sums.get("alone")[0].latencies(), 99);
      sums.forEach((kind, tallies) -> {
        Map<String, Object> row = Result.row("phase", kind, "firstScreens", tallies[0].summary(rounds * durationSeconds),
            "flood", tallies[1].summary(rounds * durationSeconds),
            "p99TimesAlone", Math.round(100 * Latencies.ms(tallies[0].latencies(), 99) / alone) / 100.0);
        rows.add(row);
      });
    } finally {
      BenchSupport.deleteTree(dir);
    }
    return true;
  }

  /** First screens at their rate, and the flood of {@code kind} started first, for {@code seconds}. */
  private void phase(String kind, int seconds, Tally screensTally, Tally floodTally) throws InterruptedException {
    long end = System.nanoTime() + seconds * 1_000_000_000L;
    List<Thread> flood = new ArrayList<>();
    for (int c = 0; !kind.equals("alone") && c < floodClients; c++) {
      int client = c;
      flood.add(BenchSupport.daemonThreads("bench-flood-").newThread(() -> floodClient(client, kind, end, floodTally)));
    }
    flood.forEach(Thread::start);
    OpenLoop.run(screenRate, seconds, 0, (i, due) -> {
      ThreadLocalRandom random = ThreadLocalRandom.current();
      int k = random.nextInt(conversations);
      screens.get(k).get(random.nextInt(devices)).getAsync("/v1/conversations/" + convIds.get(k) + "/messages?last=20")
          .whenComplete((response, error) -> screensTally.add(response, error, System.nanoTime() - due));
    });
    for (Thread thread : flood) {
      thread.join(60_000);
    }
  }

  private void floodClient(int client, String kind, long end, Tally tally) {
    while (System.nanoTime() < end) {
      ThreadLocalRandom random = ThreadLocalRandom.current();
      int k = random.nextInt(conversations);
      long seq = random.nextLong(PAGE, messages - PAGE);
      String query = client % 2 == 0 ? "before=" + seq + "&limit=" + PAGE : "after=" + seq + "&until=" + (seq + PAGE);
      long sent = System.nanoTime();
      try {
        ApiClient.Response page = pagers.get(k).get(random.nextInt(devices))
            .get("/v1/conversations/" + convIds.get(k) + "/messages?" + query);
        tally.add(page.status(), System.nanoTime() - sent);
        if (page.status() == 503) {
          BenchSupport.sleep(kind.startsWith("polite") && page.retryAfter() != null
              ? Math.min(1000L * Long.parseLong(page.retryAfter()), Math.max(0, (end - System.nanoTime()) / 1_000_000))
              : rudePauseMillis);
        }
      } catch (RuntimeException e) {
        tally.error(String.valueOf(e));
      }
    }
  }
}
