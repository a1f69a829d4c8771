package io.seqsync.bench.notify;

import com.fasterxml.jackson.databind.JsonNode;
import io.seqsync.bench.Bench;
import io.seqsync.bench.InJvmApp;
import io.seqsync.bench.Latencies;
import io.seqsync.bench.Result;
import io.seqsync.testkit.ApiClient;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import io.seqsync.app.SeqsyncApp;
import io.seqsync.bench.BenchSupport;
import io.seqsync.config.ConfigLoader;
import io.seqsync.config.SeqsyncConfig;
import io.seqsync.store.Database;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.jdbi.v3.core.statement.PreparedBatch;

/**
 * Push notification throughput and delay: the whole app in this JVM (embedded Kafka, PostgreSQL,
 * Redis), a Matrix push gateway on loopback ({@link LoopbackGateway}), and groups of 1,000 and
 * 10,000 members whose devices are all offline with a pusher each. One member sends {@code
 * messages} messages, one at a time, each after the previous one's notifications all arrived;
 * every message is one notification per other member (coalescing off). Per group size: the
 * notifications per second (from the send to the last arrival) and the delay from the send to the
 * last notification; the reference in the same run is the gateway's own ceiling (the same number
 * of requests posted straight to it at the notifier's concurrency). Markdown on stdout.
 *
 * <p>Options: {@code --sizes=1000,10000 --messages=3}.
 */
@Command(name = "bench-notify", mixinStandardHelpOptions = true)
public final class NotifyBenchmark extends Bench {
  private static final Duration TTL = Duration.ofHours(2);
  private static final long SENDER = 9_000_000L;

  @Option(names = "--sizes", split = ",", description = "group sizes, all offline with a pusher (default: ${DEFAULT-VALUE})")
  List<Integer> sizes = List.of(1000, 10000);
  @Option(names = "--messages", description = "per group (default: ${DEFAULT-VALUE})") int messages = 3;

  public static void main(String[] args) {
    Bench.main(new NotifyBenchmark(), args);
  }

  @Override
  protected boolean measure() throws Exception {
    Path dir = Files.createTempDirectory("seqsync-bench-notify-");
    SeqsyncConfig config = InJvmApp.config(dir, Map.of("notify.coalesce-window", "0s",
        "groups.max-added-per-request", "20000", "sequencer.max-group-members", "20000", "groups.max-per-user", "20000"));
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    try (LoopbackGateway gateway = new LoopbackGateway(); SeqsyncApp app = InJvmApp.start(config)) {
      ApiClient api = new ApiClient(http, "http://127.0.0.1:" + app.httpPort(), app.tokens().mint(SENDER, "bench", TTL),
          Duration.ofSeconds(30));
      long firstUser = 1;
      for (int size : sizes) {
        long[] members = LongStream.range(firstUser, firstUser + size).toArray();
        firstUser += size;
        String convId = retried(() -> api.post("/v1/groups", ApiClient.JSON.createObjectNode().put("name", "bench")
            .set("members", ApiClient.JSON.valueToTree(LongStream.of(members).mapToObj(String::valueOf).toList()))
            .toString())).path("convId").asText();
        addPushers(app, members, gateway.url());
        send(api, convId, "warm-up");
        awaitTotal(gateway, gateway.total.get() + size, Duration.ofMinutes(5));
        Histogram delays = Latencies.histogram();
        int before = gateway.total.get();
        int repeatsBefore = gateway.repeats.get();
        long began = System.nanoTime();
        for (int i = 0; i < messages; i++) {
          long sent = System.nanoTime();
          String msgId = send(api, convId, "message " + i);
          awaitTotal(gateway, before + (i + 1) * size, Duration.ofMinutes(10));
          Latencies.record(delays, gateway.byMessage.get(msgId).lastNanos().get() - sent);
        }
        double seconds = (System.nanoTime() - began) / 1e9;
        int notified = gateway.total.get() - before;
        rows.add(Result.row("offlineDevices", size, "messages", messages, "notifications", notified,
            "perSecond", Math.round(notified / seconds), "delayToLastOfAMessage", Latencies.summary(delays),
            "repeated", gateway.repeats.get() - repeatsBefore,
            "gatewayCeilingPerSecond", Math.round(ceiling(http, gateway, notified, config.notifications().inFlight()))));
        System.err.println("   " + rows.get(rows.size() - 1));
      }
    } finally {
      BenchSupport.deleteTree(dir);
    }
    return true;
  }

  private static String send(ApiClient api, String convId, String text) {
    return retried(() -> api.sendText(convId, "b-" + System.nanoTime(), text).join()).path("message").path("msgId").asText();
  }

  /** The answer's body once 2xx: the sequencer's first transaction after a start can take a while. */
  private static JsonNode retried(java.util.function.Supplier<ApiClient.Response> call) {
    for (int attempt = 0; ; attempt++) {
      ApiClient.Response response = call.get();
      if (response.status() / 100 == 2) {
        return response.body();
      }
      if (attempt > 60) {
        throw new IllegalStateException(response.status() + " " + response.body());
      }
      BenchSupport.sleep(1000);
    }
  }

  // Through the store: registering 10,000 pushers over HTTP would only measure the API.
  private static void addPushers(SeqsyncApp app, long[] users, String url) {
    try (Database database = Database.open(app.stack().postgresJdbcUrl(), app.stack().postgresUser(),
        app.stack().postgresPassword(), 2)) {
      database.jdbi().useTransaction(handle -> {
        PreparedBatch batch = handle.prepareBatch("insert into pushers (user_id, device_id, kind, url, pushkey, app_id,"
            + " created_at) values (?, 'phone', 'http', ?, ?, 'bench', 0)");
        for (long user : users) {
          batch.add(user, url, "pk-" + user);
        }
        batch.execute();
      });
    }
  }

  private static void awaitTotal(LoopbackGateway gateway, int total, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (gateway.total.get() < total) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("only " + gateway.total.get() + " of " + total + " notifications arrived");
      }
      BenchSupport.sleep(5);
    }
  }

  // The same number of requests straight to the gateway, inFlight at a time: what the gateway and loopback carry.
  private static double ceiling(HttpClient http, LoopbackGateway gateway, int requests, int inFlight) {
    Semaphore slots = new Semaphore(inFlight);
    String body = "{\"notification\":{\"event_id\":\"ceiling\",\"counts\":{\"unread\":1},\"devices\":[]}}";
    List<CompletableFuture<?>> all = new ArrayList<>(requests);
    long began = System.nanoTime();
    for (int i = 0; i < requests; i++) {
      slots.acquireUninterruptibly();
      HttpRequest request = HttpRequest.newBuilder(URI.create(gateway.url()))
          .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build();
      all.add(sendRetrying(http, request, 5).whenComplete((response, failure) -> slots.release()));
    }
    CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).join();
    return requests / ((System.nanoTime() - began) / 1e9);
  }

  // A pooled connection the server closed meanwhile fails the request: tried again, as the notifier would.
  private static CompletableFuture<HttpResponse<Void>> sendRetrying(HttpClient http, HttpRequest request, int tries) {
    CompletableFuture<HttpResponse<Void>> sent = http.sendAsync(request, HttpResponse.BodyHandlers.discarding());
    return tries <= 1 ? sent : sent.exceptionallyCompose(failure -> sendRetrying(http, request, tries - 1));
  }
}
