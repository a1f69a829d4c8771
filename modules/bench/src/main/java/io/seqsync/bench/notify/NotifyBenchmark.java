package io.seqsync.bench.notify;

import io.seqsync.app.SeqsyncApp;
import io.seqsync.bench.BenchSupport;
import io.seqsync.config.ConfigLoader;
import io.seqsync.config.LimitsSettings;
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
public final class NotifyBenchmark {
  private static final Duration TTL = Duration.ofHours(2);
  private static final long SENDER = 9_000_000L;

  private NotifyBenchmark() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> opts = new HashMap<>();
    for (String arg : args) {
      opts.put(arg.substring(2, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
    }
    List<Integer> sizes = List.of(opts.getOrDefault("sizes", "1000,10000").split(",")).stream()
        .map(Integer::parseInt).toList();
    int messages = Integer.parseInt(opts.getOrDefault("messages", "3"));
    BenchSupport.quietLogs();
    StringBuilder out = new StringBuilder("Run " + Instant.now() + "; " + Runtime.getRuntime().availableProcessors()
        + " cores; load average at start " + BenchSupport.loadAverage() + "\n\n");
    Path dir = Files.createTempDirectory("seqsync-bench-notify-");
    Map<String, String> settings = new HashMap<>(Map.of("data-dir", dir.toString(), "kafka.embedded-port", "0",
        "postgres.embedded-port", "0", "redis.embedded-port", "0", "http.host", "127.0.0.1", "http.port", "0",
        "notify.coalesce-window", "0s", "groups.max-added-per-request", "20000", "sequencer.max-group-members", "20000",
        "groups.max-per-user", "20000"));
    settings.putAll(LimitsSettings.raisedTo(100_000));
    SeqsyncConfig config = ConfigLoader.of(settings);
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    try (LoopbackGateway gateway = new LoopbackGateway(); SeqsyncApp app = SeqsyncApp.start(config)) {
      Api api = new Api(http, app.httpPort(), app.tokens().mint(SENDER, "bench", TTL));
      out.append("| offline devices | messages | notifications | per second | delay p50 (last of a message) | delay max"
          + " | repeated | gateway ceiling (per second) |\n|---|---|---|---|---|---|---|---|\n");
      long firstUser = 1;
      for (int size : sizes) {
        long[] members = LongStream.range(firstUser, firstUser + size).toArray();
        firstUser += size;
        String convId = api.group(members);
        addPushers(app, members, gateway.url());
        api.send(convId, "warm-up");
        awaitTotal(gateway, gateway.total.get() + size, Duration.ofMinutes(5));
        List<Double> delays = new ArrayList<>();
        int before = gateway.total.get();
        int repeatsBefore = gateway.repeats.get();
        long began = System.nanoTime();
        for (int i = 0; i < messages; i++) {
          long sent = System.nanoTime();
          String msgId = api.send(convId, "message " + i);
          awaitTotal(gateway, before + (i + 1) * size, Duration.ofMinutes(10));
          delays.add((gateway.byMessage.get(msgId).lastNanos().get() - sent) / 1e6);
        }
        double seconds = (System.nanoTime() - began) / 1e9;
        int notified = gateway.total.get() - before;
        delays.sort(Double::compare);
        out.append(String.format("| %,d | %d | %,d | %,.0f | %,.0f ms | %,.0f ms | %d | %,.0f |%n", size, messages,
            notified, notified / seconds, delays.get(delays.size() / 2), delays.get(delays.size() - 1),
            gateway.repeats.get() - repeatsBefore,
            ceiling(http, gateway, notified, config.notifications().inFlight())));
        System.err.printf("%d devices done: %s", size, out.substring(out.lastIndexOf("| " + String.format("%,d", size))));
      }
      out.append("\nLoad average at the end: ").append(BenchSupport.loadAverage()).append('\n');
    } finally {
      BenchSupport.deleteTree(dir);
    }
    System.out.println(out);
    System.exit(0);
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

  /** The sender's API calls. */
  private record Api(HttpClient http, int port, String token) {
    String group(long[] members) throws Exception {
      String list = LongStream.of(members).mapToObj(id -> "\"" + id + "\"").collect(Collectors.joining(","));
      String answer = call("POST", "/v1/groups", "{\"name\":\"bench\",\"members\":[" + list + "]}");
      return answer.replaceAll("(?s).*\"convId\"\\s*:\\s*\"([^\"]+)\".*", "$1");
    }

    String send(String convId, String text) throws Exception {
      String answer = call("POST", "/v1/conversations/" + convId + "/messages",
          "{\"clientMsgId\":\"b-" + System.nanoTime() + "\",\"type\":\"text\",\"content\":\"" + text + "\"}");
      return answer.replaceAll("(?s).*\"msgId\"\\s*:\\s*\"([^\"]+)\".*", "$1");
    }

    private String call(String method, String path, String body) throws Exception {
      for (int attempt = 0; ; attempt++) {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(30)).header("Authorization", "Bearer " + token)
            .header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body)).build(),
            HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() / 100 == 2) {
          return response.body();
        }
        if (attempt > 60) {
          throw new IllegalStateException(method + " " + path + ": " + response.statusCode() + " " + response.body());
        }
        Thread.sleep(1000); // the sequencer's first transaction after a start can take a while
      }
    }
  }
}
