package io.seqsync.bench.http;

import io.seqsync.bench.BenchSupport;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * An open-loop load of sends: request {@code i} of a phase is due at {@code start + i / rate},
 * whatever happened to the earlier ones, and its latency is measured from that due time (not from
 * when it could be sent), so a slow server is not hidden by a generator that waits for it
 * (coordinated omission). At most {@code maxInFlight} requests are in flight, so at most that
 * many HTTP/1.1 connections are open; due requests beyond that wait in a backlog, and that wait
 * counts in their latency. Conversations take turns; in each, the two users take turns.
 */
final class SendLoad {
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(15);
  private static final long MIN_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
  private static final String PADDING = "x".repeat(100);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** A direct conversation of users a and b, with a token for each. */
  record Conversation(String convId, String tokenA, String tokenB) {}

  /** One phase, request by request (index = request number); times in epoch milliseconds. */
  static final class Phase {
    final String tag;
    final int rate;
    final int warmupRequests;
    final int total;
    final double durationSeconds;
    final double[] dueMs;
    final double[] answeredMs;
    final long[] latencyMicros;
    final int[] status; // 0: no answer (not sent, or an exception)
    final long[] seq;
    final long[] createTime;
    final String[] convId;
    int okInWindow;
    int maxInFlight;
    int maxBacklog;
    int notSent;
    int exceptions;
    String firstError;

    Phase(String tag, int rate, int warmupRequests, int total, double durationSeconds) {
      this.tag = tag;
      this.rate = rate;
      this.warmupRequests = warmupRequests;
      this.total = total;
      this.durationSeconds = durationSeconds;
      dueMs = new double[total];
      answeredMs = new double[total];
      latencyMicros = new long[total];
      status = new int[total];
      seq = new long[total];
      createTime = new long[total];
      convId = new String[total];
    }

    String clientMsgId(int i) {
      return tag + "-" + i;
    }

    int measured() {
      return total - warmupRequests;
    }

    int countMeasured(int wanted) {
      int n = 0;
      for (int i = warmupRequests; i < total; i++) {
        n += status[i] == wanted ? 1 : 0;
      }
      return n;
    }

    /** Latencies (µs) of the measured requests answered {@code 200}. */
    Samples okLatencies() {
      Samples samples = new Samples();
      for (int i = warmupRequests; i < total; i++) {
        if (status[i] == 200) {
          samples.add(latencyMicros[i]);
        }
      }
      return samples;
    }

    /** Latencies (µs) of every measured request that got any answer or failed. */
    Samples allLatencies() {
      Samples samples = new Samples();
      for (int i = warmupRequests; i < total; i++) {
        if (latencyMicros[i] > 0) {
          samples.add(latencyMicros[i]);
        }
      }
      return samples;
    }

    /**
     * The p99 (µs) of the {@code 200}s due in each second of the measured window, one value per
     * second: its median says how the steady state does, its maximum how the worst episode did,
     * which one p99 over the window mixes up.
     */
    Samples p99PerSecond() {
      Map<Long, Samples> seconds = new TreeMap<>();
      double start = measured() > 0 ? dueMs[warmupRequests] : 0;
      for (int i = warmupRequests; i < total; i++) {
        if (status[i] == 200) {
          seconds.computeIfAbsent((long) ((dueMs[i] - start) / 1000), second -> new Samples()).add(latencyMicros[i]);
        }
      }
      Samples result = new Samples();
      seconds.values().forEach(second -> result.add(second.percentile(99)));
      return result;
    }

    double okPerSecond() {
      return okInWindow / durationSeconds;
    }

    /** Sustained: nearly every measured request got its 200, nearly at the offered rate. */
    boolean sustained() {
      return countMeasured(200) >= 0.99 * measured() && okPerSecond() >= 0.95 * rate;
    }
  }

  /** How the load's POSTs reach the server: its status and body, or a failed future. */
  interface Transport {
    CompletableFuture<RawHttpClient.Response> post(String path, String authorization, String json);
  }

  /** The JDK's HttpClient (HTTP/1.1). */
  static Transport jdk(HttpClient http, int port) {
    String origin = "http://127.0.0.1:" + port;
    return (path, authorization, json) -> http.sendAsync(HttpRequest.newBuilder(URI.create(origin + path))
            .timeout(REQUEST_TIMEOUT)
            .header("Authorization", authorization)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(json))
            .build(), HttpResponse.BodyHandlers.ofByteArray())
        .thenApply(response -> new RawHttpClient.Response(response.statusCode(), response.body()));
  }

  /** The lean client (one selector thread). */
  static Transport raw(RawHttpClient client) {
    return (path, authorization, json) -> client.send(RawHttpClient.post(path, authorization, json));
  }

  private final Transport transport;
  private final List<Conversation> conversations;
  private final int maxInFlight;

  SendLoad(Transport transport, List<Conversation> conversations, int maxInFlight) {
    this.transport = transport;
    this.conversations = conversations;
    this.maxInFlight = maxInFlight;
  }

  /** Offers {@code rate} sends/s for warmup + duration seconds, then waits for the answers. */
  /**
   * Offers {@code rate} sends/s for warmup + duration seconds, then waits for the answers. The two
   * callbacks run when the measured window starts and ends, on a thread of their own so that they
   * never delay the schedule.
   */
  Phase run(String tag, int rate, int warmupSeconds, int durationSeconds, Runnable atWindowStart, Runnable atWindowEnd) {
    int warmup = rate * warmupSeconds;
    Phase phase = new Phase(tag, rate, warmup, warmup + rate * durationSeconds, durationSeconds);
    Run run = new Run(phase);
    ExecutorService marks = Executors.newSingleThreadExecutor(runnable -> {
      Thread thread = new Thread(runnable, "bench-marks");
      thread.setDaemon(true);
      return thread;
    });
    try {
      run.schedule(() -> marks.execute(atWindowStart));
      Future<?> end = marks.submit(atWindowEnd);
      run.drain();
      end.get(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("measuring the window failed: " + e, e);
    } finally {
      marks.shutdown();
    }
    return phase;
  }

  /** The state of one phase's run. */
  private final class Run {
    private final Phase phase;
    private final Semaphore permits = new Semaphore(maxInFlight);
    private final Queue<Integer> backlog = new ConcurrentLinkedQueue<>();
    private final AtomicInteger backlogSize = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger maxInFlightSeen = new AtomicInteger();
    private final AtomicInteger maxBacklogSeen = new AtomicInteger();
    private final AtomicInteger done = new AtomicInteger();
    private final AtomicInteger okInWindow = new AtomicInteger();
    private final AtomicInteger exceptions = new AtomicInteger();
    private volatile String firstError;
    private long startNanos;
    private long windowStart;
    private long windowEnd;
    private long baseNanos;
    private long baseMillis;

    Run(Phase phase) {
      this.phase = phase;
    }

    void schedule(Runnable atWindowStart) {
      baseMillis = System.currentTimeMillis();
      baseNanos = System.nanoTime();
      startNanos = baseNanos + TimeUnit.MILLISECONDS.toNanos(20);
      windowStart = startNanos + due(phase.warmupRequests);
      windowEnd = startNanos + due(phase.total);
      for (int i = 0; i < phase.total; i++) {
        long due = startNanos + due(i);
        long wait = due - System.nanoTime();
        // No spinning (it would take a core from the server), and at most a wake-up a millisecond
        // (each wakes the client's selector too): the sends due meanwhile go out together, late,
        // and the lateness counts in their latency.
        while (wait > 0) {
          LockSupport.parkNanos(Math.max(wait, MIN_PARK_NANOS));
          wait = due - System.nanoTime();
        }
        if (i == phase.warmupRequests) {
          atWindowStart.run();
        }
        phase.dueMs[i] = epochMs(due);
        backlog.add(i);
        maxBacklogSeen.accumulateAndGet(backlogSize.incrementAndGet(), Math::max);
        pump();
      }
    }

    private long due(int i) {
      return (long) (i * 1e9 / phase.rate);
    }

    private double epochMs(long nanos) {
      return baseMillis + (nanos - baseNanos) / 1e6;
    }

    private void pump() {
      while (!backlog.isEmpty() && permits.tryAcquire()) {
        Integer next = backlog.poll();
        if (next == null) {
          permits.release();
          return;
        }
        backlogSize.decrementAndGet();
        maxInFlightSeen.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
        send(next);
      }
    }

    private void send(int i) {
      Conversation conversation = conversations.get(i % conversations.size());
      boolean byA = ((i / conversations.size()) & 1) == 0;
      String body = "{\"clientMsgId\":\"" + phase.clientMsgId(i) + "\",\"type\":\"text\",\"content\":\"message " + i
          + " of " + phase.tag + " " + PADDING + "\"}";
      String authorization = "Bearer " + (byA ? conversation.tokenA() : conversation.tokenB());
      long dueNanos = startNanos + due(i);
      transport.post("/v1/conversations/" + conversation.convId() + "/messages", authorization, body)
          .whenComplete((response, error) -> {
            long now = System.nanoTime();
            phase.answeredMs[i] = epochMs(now);
            phase.latencyMicros[i] = Math.max(1, (now - dueNanos) / 1_000);
            if (error != null) {
              exceptions.incrementAndGet();
              if (firstError == null) {
                firstError = error.toString();
              }
            } else {
              phase.status[i] = response.status();
              if (response.status() == 200) {
                if (now >= windowStart && now < windowEnd) {
                  okInWindow.incrementAndGet();
                }
                readMessage(i, response.body());
              } else if (firstError == null && response.status() != 202) {
                firstError = response.status() + " " + new String(response.body());
              }
            }
            inFlight.decrementAndGet();
            permits.release();
            done.incrementAndGet();
            pump();
          });
    }

    private void readMessage(int i, byte[] body) {
      try {
        JsonNode message = JSON.readTree(body).path("message");
        phase.seq[i] = message.path("seq").asLong();
        phase.createTime[i] = message.path("createTime").asLong();
        phase.convId[i] = message.path("convId").asText();
      } catch (java.io.IOException e) {
        if (firstError == null) {
          firstError = "unreadable 200 answer: " + e.getMessage();
        }
      }
    }

    /** Waits for the answers; abandons what is still in the backlog after the drain timeout. */
    void drain() {
      long deadline = System.nanoTime() + DRAIN_TIMEOUT.toNanos();
      boolean abandoned = false;
      while (done.get() + phase.notSent < phase.total) {
        if (System.nanoTime() > deadline) {
          if (abandoned) {
            break;
          }
          abandoned = true;
          while (backlog.poll() != null) {
            phase.notSent++;
          }
          // What is in flight ends within its request timeout.
          deadline = System.nanoTime() + REQUEST_TIMEOUT.toNanos() + TimeUnit.SECONDS.toNanos(2);
        }
        BenchSupport.sleep(20);
      }
      phase.okInWindow = okInWindow.get();
      phase.maxInFlight = maxInFlightSeen.get();
      phase.maxBacklog = maxBacklogSeen.get();
      phase.exceptions = exceptions.get();
      phase.firstError = firstError;
    }
  }
}
