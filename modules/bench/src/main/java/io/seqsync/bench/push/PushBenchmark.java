package io.seqsync.bench.push;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.seqsync.app.SeqsyncApp;
import io.seqsync.config.ConfigLoader;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.slf4j.LoggerFactory;

/**
 * Push benchmark on the whole app in this JVM (embedded Kafka, PostgreSQL, Redis), load in the same
 * JVM:
 * <ol>
 *   <li>send → push latency: {@code receivers} users each hold one {@code /v1/stream} WebSocket;
 *       an open-loop load of sends into their direct conversations at fixed rates; latency from
 *       each send's due time to the arrival of its {@code {"type":"message","mode":"push"}} frame;
 *       every push counted (missing, duplicates);
 *   <li>memory per idle WebSocket: heap (after full GCs) and RSS with N idle connections open vs
 *       closed; then the same N client WebSockets against a stub server that only answers the
 *       upgrade, to separate the client's share.
 * </ol>
 * Markdown on stdout, progress on stderr. See scripts/bench-push and docs/benchmarks.md.
 *
 * <p>Options: {@code --rates=200,500 --warmup-s=5 --duration-s=20 --receivers=200 --idle=10000
 * --open-concurrency=64}.
 */
public final class PushBenchmark {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TTL = Duration.ofHours(2);
  private static final String PADDING = "x".repeat(100);

  /** One rate phase: per message, due time, answer, pushes received and the first push's arrival. */
  static final class Phase {
    final int id;
    final int rate;
    final int warmup;
    final int total;
    final long[] dueNanos;
    final long[] pushNanos;
    final long[] answerNanos;
    final int[] status;
    final AtomicIntegerArray pushes;
    final AtomicInteger exceptions = new AtomicInteger();
    final AtomicInteger answered = new AtomicInteger();
    volatile String firstError;

    Phase(int id, int rate, int warmup, int total) {
      this.id = id;
      this.rate = rate;
      this.warmup = warmup;
      this.total = total;
      dueNanos = new long[total];
      pushNanos = new long[total];
      answerNanos = new long[total];
      status = new int[total];
      pushes = new AtomicIntegerArray(total);
    }
  }

  private static final Map<Integer, Phase> PHASES = new ConcurrentHashMap<>();
  private static final AtomicInteger FOREIGN_PUSHES = new AtomicInteger();

  private PushBenchmark() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> opts = new HashMap<>();
    for (String arg : args) {
      if (!arg.startsWith("--") || !arg.contains("=")) {
        System.err.println("usage: PushBenchmark [--rates=200,500] [--warmup-s=5] [--duration-s=20] [--receivers=200]"
            + " [--idle=10000] [--open-concurrency=64]");
        System.exit(2);
      }
      opts.put(arg.substring(2, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
    }
    List<Integer> rates = Arrays.stream(opts.getOrDefault("rates", "200,500").split(",")).map(Integer::parseInt).toList();
    int warmupS = Integer.parseInt(opts.getOrDefault("warmup-s", "5"));
    int durationS = Integer.parseInt(opts.getOrDefault("duration-s", "20"));
    int receivers = Integer.parseInt(opts.getOrDefault("receivers", "200"));
    int idleTarget = Integer.parseInt(opts.getOrDefault("idle", "10000"));
    int openConcurrency = Integer.parseInt(opts.getOrDefault("open-concurrency", "64"));
    quietLogs();

    StringBuilder out = new StringBuilder();
    out.append("Run ").append(Instant.now()).append("; ").append(Runtime.getRuntime().availableProcessors())
        .append(" cores; max heap ").append(Runtime.getRuntime().maxMemory() >> 20).append(" MiB; java ")
        .append(System.getProperty("java.version")).append("; load average at start ").append(loadAverage())
        .append("\n\n");

    Path dir = Files.createTempDirectory("seqsync-bench-push-");
    ExecutorService httpThreads = Executors.newFixedThreadPool(2, daemon("bench-push-http-"));
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(httpThreads)
        .connectTimeout(Duration.ofSeconds(5)).build();
    try (SeqsyncApp app = SeqsyncApp.start(ConfigLoader.of(Map.of(
        "data-dir", dir.toString(),
        "kafka.embedded-port", "0",
        "postgres.embedded-port", "0",
        "redis.embedded-port", "0",
        "http.host", "127.0.0.1",
        "http.port", "0")))) {
      int port = app.httpPort();
      System.err.printf("app started; HTTP on %d%n", port);
      double readySeconds = awaitSendable(http, port, app.tokens().mint(4_000_001L, "probe", TTL));
      System.err.printf("first send answered 200 after %.1f s%n", readySeconds);

      // --- 1. send → push latency
      HttpClient wsClient = HttpClient.newBuilder().executor(Executors.newFixedThreadPool(2, daemon("bench-push-ws-")))
          .build();
      List<WebSocket> receiverSockets = new ArrayList<>();
      AtomicInteger synced = new AtomicInteger();
      for (int k = 0; k < receivers; k++) {
        long receiver = 2L * k + 2;
        receiverSockets.add(wsClient.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10))
            .buildAsync(URI.create("ws://127.0.0.1:" + port + "/v1/stream?access_token="
                + app.tokens().mint(receiver, "bench", TTL)), new ReceiverListener(synced)).join());
      }
      awaitCount(synced, receivers, Duration.ofSeconds(30));
      System.err.printf("%d receivers connected and synced%n", synced.get());
      String[] senderTokens = new String[receivers];
      for (int k = 0; k < receivers; k++) {
        senderTokens[k] = app.tokens().mint(2L * k + 1, "bench", TTL);
      }
      out.append("### Send → push latency\n\n");
      out.append(receivers).append(" receivers (one WebSocket each, `?access_token=`), one direct conversation each with"
          + " its own sender; open-loop POST /v1/conversations/{id}/messages; latency = push frame arrival at the"
          + " receiver − scheduled send time (so a late generator or a backlog counts). ")
          .append(warmupS).append(" s warm-up (twice for the first rate) + ").append(durationS)
          .append(" s measured per rate.\n\n");
      out.append("| offered rate | accepted (200/202) | send errors | pushes received | missing (no push 15 s after the last answer) | duplicates | push p50 | p90 | p99 | max |"
          + " POST 200 p50 | POST p99 |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
      for (int r = 0; r < rates.size(); r++) {
        int rate = rates.get(r);
        int warmup = rate * (r == 0 ? 2 * warmupS : warmupS);
        Phase phase = new Phase(r, rate, warmup, warmup + rate * durationS);
        PHASES.put(r, phase);
        System.err.printf("rate %d/s: %d messages (%d warm-up)%n", rate, phase.total, warmup);
        runPhase(http, port, senderTokens, phase);
        String row = phaseRow(phase);
        System.err.println(row);
        out.append(row).append('\n');
      }
      out.append("\nPushes that matched no message of the run: ").append(FOREIGN_PUSHES.get())
          .append(". Load average after: ").append(loadAverage()).append("\n\n");
      for (WebSocket socket : receiverSockets) {
        socket.abort();
      }

      // --- 2. memory per idle WebSocket
      int fdLimit = fdLimit();
      int fdsOpen = fdsOpen();
      int idle = Math.max(0, Math.min(idleTarget, (fdLimit - fdsOpen - 1000) / 2));
      System.err.printf("idle connections: target %d, fd limit %d, fds open %d → %d%n", idleTarget, fdLimit, fdsOpen, idle);
      out.append("### Memory per idle WebSocket connection\n\n");
      out.append("Target ").append(idleTarget).append(" connections; open-files limit ").append(fdLimit)
          .append(" with ").append(fdsOpen).append(" already open, and both ends of each connection live in this JVM"
              + " (2 fds each): attempted ").append(idle).append(".\n\n");
      HttpClient idleClient = HttpClient.newBuilder().executor(Executors.newFixedThreadPool(2, daemon("bench-idle-ws-")))
          .build();
      Memory base = measure();
      List<WebSocket> idleSockets = new ArrayList<>();
      AtomicInteger idleSynced = new AtomicInteger();
      long opening = System.nanoTime();
      String[] idleFailure = new String[1];
      int opened = openAll(idle, openConcurrency, idleSockets, idleFailure, j -> idleClient.newWebSocketBuilder()
          .connectTimeout(Duration.ofSeconds(30))
          .buildAsync(URI.create("ws://127.0.0.1:" + port + "/v1/stream?access_token="
              + app.tokens().mint(5_000_000L + j, "idle", TTL)), new IdleListener(idleSynced)));
      awaitCount(idleSynced, opened, Duration.ofSeconds(60));
      double openSeconds = (System.nanoTime() - opening) / 1e9;
      System.err.printf("opened %d (%d synced) in %.1f s; fds open %d%n", opened, idleSynced.get(), openSeconds, fdsOpen());
      Memory withConnections = measure();
      for (WebSocket socket : idleSockets) {
        socket.abort();
      }
      idleSockets.clear();
      LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(3));
      Memory closed = measure();

      // client share: the same number of idle client WebSockets against a stub server
      Memory stubOpen;
      Memory stubClosed;
      int stubOpened;
      try (StubWebSocketServer stub = new StubWebSocketServer()) {
        Memory stubBase = measure();
        stubOpened = openAll(opened, openConcurrency, idleSockets, new String[1], j -> idleClient.newWebSocketBuilder()
            .connectTimeout(Duration.ofSeconds(30))
            .buildAsync(URI.create("ws://127.0.0.1:" + stub.port() + "/"), new IdleListener(new AtomicInteger())));
        stubOpen = measure();
        for (WebSocket socket : idleSockets) {
          socket.abort();
        }
        idleSockets.clear();
        stub.dropAll();
        LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(2));
        stubClosed = measure();
        stubOpen = new Memory(stubOpen.heap - stubBase.heap + closed.heap, stubOpen.rss - stubBase.rss + closed.rss);
      }
      double combinedUp = (withConnections.heap - base.heap) / (double) Math.max(1, opened);
      double combinedDown = (withConnections.heap - closed.heap) / (double) Math.max(1, opened);
      double clientOnly = (stubOpen.heap - closed.heap) / (double) Math.max(1, stubOpened);
      out.append("Opened ").append(opened).append(" (").append(idleSynced.get()).append(" received their `sync` frame) in ")
          .append(String.format("%.1f", openSeconds)).append(" s, ").append(openConcurrency)
          .append(" upgrades in flight at most")
          .append(idleFailure[0] == null ? "" : "; first failure: `" + idleFailure[0] + "`").append(".\n\n");
      out.append("| state | heap used after full GC | RSS |\n|---|---|---|\n");
      out.append(memRow("before (receivers closed)", base));
      out.append(memRow(opened + " idle seqsync WebSockets open", withConnections));
      out.append(memRow("after closing them", closed));
      out.append(memRow(stubOpened + " client WebSockets to a stub server (rebased)", stubOpen));
      out.append(memRow("after closing those", stubClosed));
      out.append('\n');
      out.append(String.format("- combined client + server heap per connection: %,.0f B (open − before), %,.0f B"
          + " (open − after closing)%n", combinedUp, combinedDown));
      out.append(String.format("- client-only heap per connection (JDK WebSocket to a stub that only holds a Socket): %,.0f B%n",
          clientOnly));
      out.append(String.format("- server-side estimate (combined − client-only): %,.0f B per connection%n",
          combinedDown - clientOnly));
      out.append(String.format("- RSS per connection (combined, open − before): %,.0f B%n",
          (withConnections.rss - base.rss) / (double) Math.max(1, opened)));
      out.append("\nLoad average at the end: ").append(loadAverage()).append('\n');
    } finally {
      deleteTree(dir);
    }
    System.out.println(out);
    System.out.flush();
    System.exit(0);
  }

  /** Sends probe messages until one is answered 200 (the sequencer's first transaction can take a while). */
  private static double awaitSendable(HttpClient http, int port, String token) throws InterruptedException {
    long began = System.nanoTime();
    for (int attempt = 0; System.nanoTime() - began < TimeUnit.SECONDS.toNanos(120); attempt++) {
      HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
              + "/v1/conversations/d:4000001:4000002/messages"))
          .timeout(Duration.ofSeconds(10))
          .header("Authorization", "Bearer " + token)
          .header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString("{\"clientMsgId\":\"probe-" + attempt
              + "\",\"type\":\"text\",\"content\":\"probe\"}"))
          .build();
      try {
        if (http.send(request, HttpResponse.BodyHandlers.ofString()).statusCode() == 200) {
          break;
        }
      } catch (IOException e) {
        // not yet
      }
      Thread.sleep(500);
    }
    return (System.nanoTime() - began) / 1e9;
  }

  interface Opener {
    CompletableFuture<WebSocket> open(int j);
  }

  private static int openAll(int n, int concurrency, List<WebSocket> into, String[] failure, Opener opener) {
    Semaphore permits = new Semaphore(concurrency);
    AtomicInteger ok = new AtomicInteger();
    AtomicInteger failed = new AtomicInteger();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    for (int j = 0; j < n && failed.get() < 50 && System.nanoTime() < deadline; j++) {
      permits.acquireUninterruptibly();
      CompletableFuture<WebSocket> future;
      try {
        future = opener.open(j);
      } catch (RuntimeException e) {
        permits.release();
        failed.incrementAndGet();
        failure[0] = failure[0] == null ? e.toString() : failure[0];
        continue;
      }
      future.whenComplete((socket, error) -> {
        if (error != null) {
          failed.incrementAndGet();
          synchronized (failure) {
            failure[0] = failure[0] == null ? error.toString() : failure[0];
          }
        } else {
          synchronized (into) {
            into.add(socket);
          }
          ok.incrementAndGet();
        }
        permits.release();
      });
      if (j % 1000 == 999) {
        System.err.printf("  %d upgrades started, %d open, %d failed%n", j + 1, ok.get(), failed.get());
      }
    }
    permits.acquireUninterruptibly(concurrency);
    permits.release(concurrency);
    return ok.get();
  }

  private static void runPhase(HttpClient http, int port, String[] senderTokens, Phase phase) {
    int n = senderTokens.length;
    long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20);
    for (int i = 0; i < phase.total; i++) {
      long due = start + (long) (i * 1e9 / phase.rate);
      long wait = due - System.nanoTime();
      while (wait > 0) {
        LockSupport.parkNanos(wait);
        wait = due - System.nanoTime();
      }
      phase.dueNanos[i] = due;
      int k = i % n;
      long a = 2L * k + 1;
      String body = "{\"clientMsgId\":\"p" + phase.id + "-" + i + "\",\"type\":\"text\",\"content\":\"push " + i + " "
          + PADDING + "\"}";
      HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/conversations/d:" + a + ":"
              + (a + 1) + "/messages"))
          .timeout(Duration.ofSeconds(10))
          .header("Authorization", "Bearer " + senderTokens[k])
          .header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(body))
          .build();
      int index = i;
      http.sendAsync(request, HttpResponse.BodyHandlers.ofString()).whenComplete((response, error) -> {
        phase.answerNanos[index] = System.nanoTime();
        if (error != null) {
          phase.exceptions.incrementAndGet();
          phase.firstError = phase.firstError == null ? error.toString() : phase.firstError;
        } else {
          phase.status[index] = response.statusCode();
          if (!accepted(response.statusCode()) && phase.firstError == null) {
            phase.firstError = response.statusCode() + " " + response.body();
          }
        }
        phase.answered.incrementAndGet();
      });
    }
    // answers, then the pushes of every message answered 200
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (phase.answered.get() < phase.total && System.nanoTime() < deadline) {
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
    }
    deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    while (System.nanoTime() < deadline) {
      boolean all = true;
      for (int i = 0; i < phase.total && all; i++) {
        all = !accepted(phase.status[i]) || phase.pushes.get(i) > 0;
      }
      if (all) {
        break;
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
    }
    LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1)); // late duplicates
  }

  private static String phaseRow(Phase phase) {
    int sent = 0;
    int errors = 0;
    int received = 0;
    int missing = 0;
    int answered202 = 0;
    int duplicates = 0;
    List<Long> push = new ArrayList<>();
    List<Long> post = new ArrayList<>();
    for (int i = 0; i < phase.total; i++) {
      int count = phase.pushes.get(i);
      received += count > 0 ? 1 : 0;
      duplicates += Math.max(0, count - 1);
      if (accepted(phase.status[i])) {
        sent++;
        answered202 += phase.status[i] == 202 ? 1 : 0;
        missing += count == 0 ? 1 : 0;
      } else {
        errors++;
      }
      if (i >= phase.warmup) {
        if (count > 0) {
          push.add(phase.pushNanos[i] - phase.dueNanos[i]);
        }
        if (phase.status[i] == 200) {
          post.add(phase.answerNanos[i] - phase.dueNanos[i]);
        }
      }
    }
    push.sort(Comparator.naturalOrder());
    post.sort(Comparator.naturalOrder());
    String row = String.format("| %d/s | %d of %d (%d of them 202) | %d | %d | %d | %d | %s | %s | %s | %s | %s | %s |", phase.rate, sent,
        phase.total, answered202, errors, received, missing, duplicates, ms(push, 50), ms(push, 90), ms(push, 99), ms(push, 100),
        ms(post, 50), ms(post, 99));
    if (phase.firstError != null) {
      row += "\n\nfirst send error at " + phase.rate + "/s: `" + phase.firstError.replace('\n', ' ') + "`\n";
    }
    return row;
  }

  /** 200: committed; 202: written to Kafka but not committed within the reply budget: it will be pushed. */
  private static boolean accepted(int status) {
    return status == 200 || status == 202;
  }

  private static String ms(List<Long> sorted, double p) {
    if (sorted.isEmpty()) {
      return "–";
    }
    int rank = (int) Math.ceil(p / 100.0 * sorted.size());
    return String.format("%.1f ms", sorted.get(Math.min(sorted.size() - 1, Math.max(0, rank - 1))) / 1e6);
  }

  /** Receives push frames, matching them to the phase and message by clientMsgId {@code p<phase>-<i>}. */
  private static final class ReceiverListener implements WebSocket.Listener {
    private final AtomicInteger synced;
    private final StringBuilder partial = new StringBuilder();

    ReceiverListener(AtomicInteger synced) {
      this.synced = synced;
    }

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
      long now = System.nanoTime();
      partial.append(data);
      if (last) {
        String text = partial.toString();
        partial.setLength(0);
        try {
          JsonNode frame = JSON.readTree(text);
          String type = frame.path("type").asText();
          if (type.equals("sync")) {
            synced.incrementAndGet();
          } else if (type.equals("message") && frame.path("mode").asText().equals("push")) {
            record(frame.path("message").path("clientMsgId").asText(""), now);
          }
        } catch (IOException e) {
          FOREIGN_PUSHES.incrementAndGet();
        }
      }
      webSocket.request(1);
      return null;
    }

    private static void record(String clientMsgId, long now) {
      int dash = clientMsgId.indexOf('-');
      Phase phase = null;
      int i = -1;
      if (clientMsgId.startsWith("p") && dash > 1) {
        try {
          phase = PHASES.get(Integer.parseInt(clientMsgId.substring(1, dash)));
          i = Integer.parseInt(clientMsgId.substring(dash + 1));
        } catch (NumberFormatException ignored) {
          phase = null;
        }
      }
      if (phase == null || i < 0 || i >= phase.total) {
        FOREIGN_PUSHES.incrementAndGet();
        return;
      }
      if (phase.pushes.getAndIncrement(i) == 0) {
        phase.pushNanos[i] = now;
      }
    }
  }

  /** An idle connection: counts the handshake frame, keeps reading whatever else comes. */
  private static final class IdleListener implements WebSocket.Listener {
    private final AtomicInteger synced;
    private boolean first = true;

    IdleListener(AtomicInteger synced) {
      this.synced = synced;
    }

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
      if (first && last) {
        first = false;
        synced.incrementAndGet();
      }
      webSocket.request(1);
      return null;
    }
  }

  record Memory(long heap, long rss) {}

  private static Memory measure() {
    for (int i = 0; i < 3; i++) {
      System.gc();
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(300));
    }
    long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    return new Memory(heap, rss());
  }

  private static String memRow(String label, Memory m) {
    return String.format("| %s | %,.1f MiB | %,.1f MiB |%n", label, m.heap / 1048576.0, m.rss / 1048576.0);
  }

  private static long rss() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
        }
      }
    } catch (IOException | NumberFormatException ignored) {
      // not Linux
    }
    return -1;
  }

  private static int fdLimit() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
        if (line.startsWith("Max open files")) {
          return Integer.parseInt(line.substring("Max open files".length()).trim().split("\\s+")[0]);
        }
      }
    } catch (IOException | NumberFormatException ignored) {
      // not Linux
    }
    return 4096;
  }

  private static int fdsOpen() {
    try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      return (int) fds.count();
    } catch (IOException e) {
      return 0;
    }
  }

  private static String loadAverage() {
    try {
      String[] parts = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return parts[0] + ", " + parts[1] + ", " + parts[2];
    } catch (IOException e) {
      return "?";
    }
  }

  private static void awaitCount(AtomicInteger count, int wanted, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (count.get() < wanted && System.nanoTime() < deadline) {
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
    }
  }

  private static java.util.concurrent.ThreadFactory daemon(String prefix) {
    AtomicInteger count = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, prefix + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }

  private static void quietLogs() {
    if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
      for (String name : List.of("io.zonky", "org.eclipse.jetty", "io.javalin", "redis", "com.zaxxer", "org.jdbi",
          "org.apache.kafka", "kafka", "io.seqsync")) {
        context.getLogger(name).setLevel(Level.WARN);
      }
    }
  }

  private static void deleteTree(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException ignored) {
      // a temp dir left behind
    }
  }
}
