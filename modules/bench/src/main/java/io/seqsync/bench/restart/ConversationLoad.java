package io.seqsync.bench.restart;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.seqsync.bench.BenchSupport;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Sends to {@code conversations} conversations at about {@code rate} sends/s in all, each
 * conversation's sends one after another; a send not answered 200 (refused, timed out, 202) is sent
 * again with the same clientMsgId until it is, as a client would. Records when each 200 came, so
 * that a restart's gap can be read off, and what each clientMsgId was given, so that the stored
 * conversations can be checked afterwards.
 */
final class ConversationLoad implements AutoCloseable {
  static final ObjectMapper JSON = new ObjectMapper();
  private static final long RETRY_PAUSE_MS = 50;

  private final List<String> convs = new ArrayList<>();
  private final long intervalNanos;
  private final String auth;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private final ExecutorService workers;
  // clientMsgId -> seq answered, per conversation
  private final Map<String, Map<String, Long>> answered = new ConcurrentHashMap<>();
  private final AtomicLong lastOkNanos = new AtomicLong();
  private final AtomicLong failures = new AtomicLong();
  private volatile int port;
  private volatile boolean running = true;
  private volatile long okSinceNanos = Long.MAX_VALUE;
  private volatile long firstOkSinceNanos;
  private final Map<String, Long> firstOkPerConv = new ConcurrentHashMap<>();

  ConversationLoad(int port, String auth, int conversations, int rate) {
    this.port = port;
    this.auth = auth;
    this.intervalNanos = 1_000_000_000L * conversations / rate;
    for (int k = 0; k < conversations; k++) {
      String conv = "d:1:" + (1_000 + k);
      convs.add(conv);
      answered.put(conv, new ConcurrentHashMap<>());
    }
    workers = Executors.newFixedThreadPool(conversations, BenchSupport.daemonThreads("restart-load-"));
    convs.forEach(conv -> workers.submit(() -> sendAll(conv)));
  }

  void port(int port) {
    this.port = port;
  }

  /** From now on, note the first 200 and each conversation's first 200. */
  void markFrom(long nanos) {
    firstOkPerConv.clear();
    firstOkSinceNanos = 0;
    okSinceNanos = nanos;
  }

  /** When the first 200 after the mark came (0: none yet). */
  long firstOk() {
    return firstOkSinceNanos;
  }

  /** When every conversation had a 200 after the mark (0: not yet). */
  long allOk() {
    return firstOkPerConv.size() < convs.size() ? 0 : firstOkPerConv.values().stream().mapToLong(Long::longValue).max()
        .orElse(0);
  }

  long sent() {
    return answered.values().stream().mapToLong(Map::size).sum();
  }

  long failures() {
    return failures.get();
  }

  List<String> conversations() {
    return convs;
  }

  Map<String, Long> answered(String conv) {
    return answered.get(conv);
  }

  private void sendAll(String conv) {
    long next = System.nanoTime();
    for (int i = 1; running; i++) {
      String clientMsgId = conv + "-" + i;
      while (running && !send(conv, clientMsgId)) {
        failures.incrementAndGet();
        BenchSupport.sleep(RETRY_PAUSE_MS);
      }
      next += intervalNanos;
      long wait = next - System.nanoTime();
      if (wait > 0) {
        BenchSupport.sleep(wait / 1_000_000);
      } else {
        next = System.nanoTime(); // behind after an outage: no burst to catch up
      }
    }
  }

  private boolean send(String conv, String clientMsgId) {
    String body = "{\"clientMsgId\":\"" + clientMsgId + "\",\"type\":\"text\",\"content\":\"restart bench\"}";
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/conversations/" + conv
            + "/messages")).timeout(Duration.ofSeconds(3)).header("Authorization", auth)
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build();
    try {
      HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        return false;
      }
      long seq = JSON.readTree(response.body()).path("message").path("seq").asLong();
      Long before = answered.get(conv).put(clientMsgId, seq);
      if (before != null && before != seq) {
        throw new IllegalStateException(clientMsgId + " answered seq " + before + " and then " + seq);
      }
      long now = System.nanoTime();
      if (now >= okSinceNanos) {
        if (firstOkSinceNanos == 0) {
          firstOkSinceNanos = now;
        }
        firstOkPerConv.putIfAbsent(conv, now);
      }
      lastOkNanos.set(now);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      running = false;
      return false;
    } catch (Exception e) {
      return false;
    }
  }

  /**
   * Pages every conversation from seq 1 and checks it: seqs exactly 1..N, each clientMsgId once,
   * each answered clientMsgId stored at the seq it was answered with. Returns the problems found.
   */
  List<String> verify() throws Exception {
    List<String> problems = new ArrayList<>();
    for (String conv : convs) {
      Map<String, Long> stored = new HashMap<>();
      long expected = 1;
      long after = 0;
      boolean more = true;
      while (more) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/conversations/" + conv
            + "/messages?after=" + after)).timeout(Duration.ofSeconds(10)).header("Authorization", auth).GET().build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
          problems.add(conv + ": page after " + after + " answered " + response.statusCode());
          break;
        }
        JsonNode page = JSON.readTree(response.body());
        for (JsonNode message : page.path("messages")) {
          long seq = message.path("seq").asLong();
          if (seq != expected) {
            problems.add(conv + ": seq " + seq + " where " + expected + " was expected");
          }
          expected = seq + 1;
          if (stored.put(message.path("clientMsgId").asText(), seq) != null) {
            problems.add(conv + ": clientMsgId " + message.path("clientMsgId").asText() + " stored twice");
          }
        }
        more = page.path("hasMore").asBoolean();
        after = page.path("nextAfter").asLong();
      }
      answered.get(conv).forEach((clientMsgId, seq) -> {
        if (!seq.equals(stored.get(clientMsgId))) {
          problems.add(conv + ": " + clientMsgId + " answered seq " + seq + ", stored " + stored.get(clientMsgId));
        }
      });
    }
    return problems;
  }

  /** Stops sending (a send in flight finishes or times out). */
  @Override
  public void close() {
    running = false;
    workers.shutdown();
    try {
      workers.awaitTermination(30, java.util.concurrent.TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
