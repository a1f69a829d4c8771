package io.seqsync.bench.restart;

import io.seqsync.bench.BenchSupport;
import io.seqsync.testkit.ApiClient;
import io.seqsync.testkit.Outbox;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Sends to {@code conversations} conversations at about {@code rate} sends/s in all, each
 * conversation's sends one after another through the outbox (sent again until answered 200).
 * Records when each 200 came, so that a restart's gap can be read off, and what seq each
 * clientMsgId was given, so that the stored conversations can be checked afterwards.
 */
final class ConversationLoad implements AutoCloseable {
  private final ApiClient api;
  private final Outbox outbox;
  private final List<String> convs = new ArrayList<>();
  private final Map<String, Map<String, Long>> answered = new ConcurrentHashMap<>();
  private final Map<String, Long> firstOkPerConv = new ConcurrentHashMap<>();
  private final ExecutorService workers;
  private final long intervalNanos;
  private volatile boolean running = true;
  private volatile long markNanos = Long.MAX_VALUE;
  private volatile long firstOk;

  ConversationLoad(ApiClient api, int conversations, int rate) {
    this.api = api;
    this.outbox = new Outbox(List.of(api), 50);
    this.intervalNanos = 1_000_000_000L * conversations / rate;
    for (int k = 0; k < conversations; k++) {
      String conv = "d:1:" + (1_000 + k);
      convs.add(conv);
      answered.put(conv, new ConcurrentHashMap<>());
    }
    workers = Executors.newFixedThreadPool(conversations, BenchSupport.daemonThreads("restart-load-"));
    convs.forEach(conv -> workers.submit(() -> sendAll(conv)));
  }

  /** From now on, note the first 200 and each conversation's first 200. */
  void markFrom(long nanos) {
    firstOkPerConv.clear();
    firstOk = 0;
    markNanos = nanos;
  }

  /** When the first 200 after the mark came (0: none yet). */
  long firstOk() {
    return firstOk;
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
    return outbox.failures();
  }

  private void sendAll(String conv) {
    long next = System.nanoTime();
    for (int i = 1; running; i++) {
      Outbox.Delivery delivery;
      try {
        delivery = outbox.send(conv, conv + "-" + i, "restart bench").join();
      } catch (RuntimeException closed) {
        return;
      }
      answered.get(conv).put(delivery.clientMsgId(), delivery.seq());
      if (delivery.stored() >= markNanos) {
        firstOk = firstOk == 0 ? delivery.stored() : firstOk;
        firstOkPerConv.putIfAbsent(conv, delivery.stored());
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

  /**
   * Pages every conversation from seq 1 and checks it: seqs exactly 1..N, each clientMsgId once,
   * each answered clientMsgId stored at the seq it was answered with. Returns the problems found.
   */
  List<String> verify() {
    List<String> problems = new ArrayList<>();
    for (String conv : convs) {
      Map<String, Long> stored = new HashMap<>();
      long expected = 1;
      for (long after = 0; after >= 0; ) {
        ApiClient.Response page = api.get("/v1/conversations/" + conv + "/messages?after=" + after);
        if (page.status() != 200) {
          problems.add(conv + ": page after " + after + " answered " + page.status());
          break;
        }
        for (var message : page.body().path("messages")) {
          long seq = message.path("seq").asLong();
          if (seq != expected) {
            problems.add(conv + ": seq " + seq + " where " + expected + " was expected");
          }
          expected = seq + 1;
          if (stored.put(message.path("clientMsgId").asText(), seq) != null) {
            problems.add(conv + ": clientMsgId " + message.path("clientMsgId").asText() + " stored twice");
          }
        }
        after = page.body().path("hasMore").asBoolean() ? page.body().path("nextAfter").asLong() : -1;
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
    outbox.close();
    workers.shutdown();
    try {
      workers.awaitTermination(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
