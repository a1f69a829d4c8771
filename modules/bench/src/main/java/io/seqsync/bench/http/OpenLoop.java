package io.seqsync.bench.http;

import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Requests at a fixed rate, whatever happened before: request {@code i} is due at
 * {@code start + i / rate} and its latency runs from that due time to its answer, so a stall
 * counts for every request it delays (no coordinated omission). Every request due inside the
 * window is counted, however late its answer: its status, and the latency of each 200.
 */
final class OpenLoop {
  private final Thread scheduler;
  private final Samples latencies = new Samples();
  private final Map<Integer, Long> statuses = new HashMap<>();
  private long errors;
  private String firstError;
  private volatile boolean running = true;
  private final AtomicInteger inFlight = new AtomicInteger();

  OpenLoop(String name, int ratePerSecond, Supplier<CompletableFuture<HttpResponse<byte[]>>> request, long windowStart,
      long windowEnd) {
    long start = System.nanoTime();
    long interval = TimeUnit.SECONDS.toNanos(1) / ratePerSecond;
    scheduler = new Thread(() -> {
      for (long i = 0; running; i++) {
        long due = start + i * interval;
        FetchBenchmark.sleepUntil(due);
        inFlight.incrementAndGet();
        request.get().whenComplete((response, error) -> {
          record(due, response, error, windowStart, windowEnd);
          inFlight.decrementAndGet();
        });
      }
    }, name);
    scheduler.setDaemon(true);
  }

  OpenLoop start() {
    scheduler.start();
    return this;
  }

  private synchronized void record(long due, HttpResponse<byte[]> response, Throwable error, long windowStart,
      long windowEnd) {
    long done = System.nanoTime();
    if (due < windowStart || due >= windowEnd) {
      return;
    }
    if (error != null) {
      errors++;
      firstError = firstError == null ? error.toString() : firstError;
      return;
    }
    statuses.merge(response.statusCode(), 1L, Long::sum);
    if (response.statusCode() == 200) {
      latencies.add((done - due) / 1_000);
    }
  }

  /** Stops scheduling, waits for the answers still outstanding (30 s at most), and adds up what was counted. */
  LaneBenchmark.Tally stop() {
    running = false;
    try {
      scheduler.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (inFlight.get() > 0 && System.nanoTime() < deadline) {
      FetchBenchmark.sleepUntil(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(10));
    }
    synchronized (this) {
      Samples copy = new Samples();
      copy.addAll(latencies);
      return new LaneBenchmark.Tally(copy, new HashMap<>(statuses), errors, firstError);
    }
  }
}
