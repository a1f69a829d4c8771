package io.seqsync.bench.http;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code clients} threads, each sending its next request when the previous is answered, until
 * stopped; what is sent and answered inside the window is counted: every status, and the latency
 * of each 200. After a 503 a client pauses {@code pauseAfter503Millis} (0: none; negative: as
 * long as the answer's {@code Retry-After} says, as a well-behaved client does).
 */
final class ClosedLoop {
  private final List<Thread> threads = new ArrayList<>();
  private final List<Samples> latencies = new ArrayList<>();
  private final List<Map<Integer, Long>> statuses = new ArrayList<>();
  private final long[] errors;
  private final String[] firstErrors;
  private volatile boolean running = true;

  ClosedLoop(String name, int clients, LaneBenchmark.Request request, int pauseAfter503Millis, long windowStart,
      long windowEnd) {
    errors = new long[clients];
    firstErrors = new String[clients];
    for (int c = 0; c < clients; c++) {
      int client = c;
      Samples samples = new Samples();
      Map<Integer, Long> counts = new HashMap<>();
      latencies.add(samples);
      statuses.add(counts);
      Thread thread = new Thread(() -> {
        while (running) {
          long sent = System.nanoTime();
          int status;
          long retryAfterSeconds = 0;
          try {
            HttpResponse<byte[]> response = request.send(client);
            status = response.statusCode();
            retryAfterSeconds = response.headers().firstValueAsLong("Retry-After").orElse(0);
          } catch (Exception e) {
            status = -1;
            firstErrors[client] = firstErrors[client] == null ? e.toString() : firstErrors[client];
          }
          long done = System.nanoTime();
          if (sent >= windowStart && done <= windowEnd) {
            if (status < 0) {
              errors[client]++;
            } else {
              counts.merge(status, 1L, Long::sum);
            }
            if (status == 200) {
              samples.add((done - sent) / 1_000);
            }
          }
          if (status == 503 && pauseAfter503Millis != 0) {
            long pause = pauseAfter503Millis > 0 ? TimeUnit.MILLISECONDS.toNanos(pauseAfter503Millis)
                : TimeUnit.SECONDS.toNanos(retryAfterSeconds);
            FetchBenchmark.sleepUntil(Math.min(System.nanoTime() + pause, windowEnd));
          }
        }
      }, name + c);
      thread.setDaemon(true);
      threads.add(thread);
    }
  }

  ClosedLoop start() {
    threads.forEach(Thread::start);
    return this;
  }

  /** Stops every client after its request in flight and adds up what they counted. */
  LaneBenchmark.Tally stop() {
    running = false;
    for (Thread thread : threads) {
      try {
        thread.join(60_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    Samples all = new Samples();
    latencies.forEach(all::addAll);
    Map<Integer, Long> counts = new HashMap<>();
    statuses.forEach(map -> map.forEach((status, n) -> counts.merge(status, n, Long::sum)));
    long errorCount = 0;
    String firstError = null;
    for (int c = 0; c < errors.length; c++) {
      errorCount += errors[c];
      firstError = firstError == null ? firstErrors[c] : firstError;
    }
    return new LaneBenchmark.Tally(all, counts, errorCount, firstError);
  }
}
