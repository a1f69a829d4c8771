package io.seqsync.bench.push;

import io.seqsync.bench.BenchSupport;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.seqsync.app.SeqsyncApp;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;

/**
 * Send → push latency: {@code receivers} users each hold one {@code /v1/stream} WebSocket; an
 * open-loop load of sends into their direct conversations at fixed rates; latency from each send's
 * due time to the arrival of its {@code {"type":"message","mode":"push"}} frame; every push counted
 * (missing, duplicates).
 */
final class PushLatency {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PADDING = "x".repeat(100);

  /** One rate phase: per message, due time, answer, pushes received and the first push's arrival. */
  private static final class Phase {
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

  private PushLatency() {}

  /** The markdown section: one row per rate, sent through {@code http} to the app on {@code port}. */
  static String section(SeqsyncApp app, HttpClient http, int port, List<Integer> rates, int warmupS, int durationS,
      int receivers) {
    StringBuilder out = new StringBuilder();
    HttpClient wsClient = HttpClient.newBuilder()
        .executor(Executors.newFixedThreadPool(2, BenchSupport.daemonThreads("bench-push-ws-"))).build();
    List<WebSocket> receiverSockets = new ArrayList<>();
    AtomicInteger synced = new AtomicInteger();
    for (int k = 0; k < receivers; k++) {
      long receiver = 2L * k + 2;
      receiverSockets.add(wsClient.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10))
          .buildAsync(URI.create("ws://127.0.0.1:" + port + "/v1/stream?access_token="
              + app.tokens().mint(receiver, "bench", PushBenchmark.TTL)), new ReceiverListener(synced)).join());
    }
    awaitCount(synced, receivers, Duration.ofSeconds(30));
    System.err.printf("%d receivers connected and synced%n", synced.get());
    String[] senderTokens = new String[receivers];
    for (int k = 0; k < receivers; k++) {
      senderTokens[k] = app.tokens().mint(2L * k + 1, "bench", PushBenchmark.TTL);
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
        .append(". Load average after: ").append(BenchSupport.loadAverage()).append("\n\n");
    for (WebSocket socket : receiverSockets) {
      socket.abort();
    }
    return out.toString();
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

  private static void awaitCount(AtomicInteger count, int wanted, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (count.get() < wanted && System.nanoTime() < deadline) {
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
    }
  }
}
