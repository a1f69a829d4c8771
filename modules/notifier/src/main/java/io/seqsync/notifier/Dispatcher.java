package io.seqsync.notifier;

import io.micrometer.core.instrument.MeterRegistry;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a channel's due deliveries from the outbox, on a thread of its own: claims a batch (at most
 * {@code inFlight}), sends them all at once, then settles, reschedules or dead-letters each by its
 * verdict, and claims the next batch; it sleeps a poll interval when nothing is due, or until
 * {@link #wake()}. Every instance runs one per channel: claims skip what another holds.
 * Thread-safety: {@link #start()}, {@link #wake()} and {@link #close()} from any thread.
 */
final class Dispatcher implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Dispatcher.class);
  private static final int MAX_ERROR = 500;

  private record Outcome(PendingDelivery delivery, Verdict verdict, String error) {}

  private final DeliveryChannel channel;
  private final Outbox outbox;
  private final DeliverySettings settings;
  private final String instance;
  private final HttpClient http;
  private final DeliveryMetrics metrics;
  private final Semaphore wakeups = new Semaphore(0);
  private final Thread thread;
  private volatile boolean running = true;

  Dispatcher(DeliveryChannel channel, Outbox outbox, DeliverySettings settings, String instance, HttpClient http,
      MeterRegistry registry) {
    this.channel = channel;
    this.outbox = outbox;
    this.settings = settings;
    this.instance = instance;
    this.http = http;
    this.metrics = new DeliveryMetrics(registry, channel.name());
    this.thread = new Thread(this::run, "seqsync-notifier-" + channel.name() + "-dispatcher");
    thread.setDaemon(true);
  }

  void start() {
    int released = outbox.releaseClaims(instance);
    if (released > 0) {
      log.info("{}: {} deliveries this instance was sending when it stopped are due again", channel.name(), released);
    }
    thread.start();
  }

  /** Something new may be due: look now rather than after the poll interval. */
  void wake() {
    wakeups.release();
  }

  private void run() {
    while (running) {
      try {
        List<PendingDelivery> due = outbox.claim(channel.name(), !channel.ordering().coalesced(), instance,
            settings.lease(), settings.inFlight());
        if (due.isEmpty()) {
          wakeups.tryAcquire(settings.pollInterval().toMillis(), TimeUnit.MILLISECONDS);
          wakeups.drainPermits();
        } else {
          conclude(sendAll(due));
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (RuntimeException e) {
        log.error("{}: dispatching failed; trying again in {} ms", channel.name(), settings.pollInterval().toMillis(), e);
        sleep(settings.pollInterval());
      }
    }
  }

  private List<Outcome> sendAll(List<PendingDelivery> due) {
    try {
      channel.prepare(due);
    } catch (RuntimeException e) {
      return due.stream().map(delivery -> new Outcome(delivery, Verdict.RETRY, "prepare: " + e)).toList();
    }
    List<CompletableFuture<Outcome>> sending = new ArrayList<>(due.size());
    for (PendingDelivery delivery : due) {
      sending.add(send(delivery));
    }
    return sending.stream().map(CompletableFuture::join).toList();
  }

  private CompletableFuture<Outcome> send(PendingDelivery delivery) {
    Optional<HttpRequest> request;
    try {
      request = channel.request(delivery);
    } catch (RuntimeException e) {
      return CompletableFuture.completedFuture(new Outcome(delivery, Verdict.RETRY, "request: " + e));
    }
    if (request.isEmpty()) {
      return CompletableFuture.completedFuture(new Outcome(delivery, Verdict.SKIPPED, null));
    }
    HttpRequest timed = HttpRequest.newBuilder(request.get(), (name, value) -> true)
        .timeout(settings.requestTimeout()).build();
    long began = System.nanoTime();
    return http.sendAsync(timed, HttpResponse.BodyHandlers.ofString())
        .handle((response, failure) -> {
          metrics.requestTime().record(System.nanoTime() - began, TimeUnit.NANOSECONDS);
          if (failure != null) {
            return new Outcome(delivery, Verdict.RETRY, failure.toString());
          }
          Verdict verdict = channel.verdict(delivery, response.statusCode(), response.body());
          return new Outcome(delivery, verdict, verdict == Verdict.DELIVERED ? null
              : "HTTP " + response.statusCode() + ": " + response.body());
        });
  }

  private void conclude(List<Outcome> outcomes) {
    Duration window = channel.ordering().coalesceWindow().orElse(Duration.ZERO);
    List<PendingDelivery> done = new ArrayList<>();
    for (Outcome outcome : outcomes) {
      PendingDelivery delivery = outcome.delivery();
      switch (outcome.verdict()) {
        case DELIVERED, SKIPPED -> done.add(delivery);
        case RETRY -> {
          if (delivery.attempts() < settings.maxAttempts()) {
            metrics.retried().increment();
            outbox.retryLater(delivery, settings.backoff(delivery.attempts()), truncated(outcome.error()));
            continue;
          }
          outbox.deadLetter(delivery, truncated(outcome.error()), window);
        }
        case REFUSED -> outbox.deadLetter(delivery, truncated(outcome.error()), window);
      }
    }
    outbox.settle(done, window);
    for (Outcome outcome : outcomes) {
      PendingDelivery delivery = outcome.delivery();
      boolean settled = outcome.verdict() != Verdict.RETRY || delivery.attempts() >= settings.maxAttempts();
      if (settled) {
        Verdict verdict = outcome.verdict() == Verdict.RETRY ? Verdict.GAVE_UP : outcome.verdict();
        metrics.settled(verdict);
        channel.settled(delivery, verdict);
      }
    }
  }

  private static String truncated(String error) {
    return error == null || error.length() <= MAX_ERROR ? String.valueOf(error) : error.substring(0, MAX_ERROR);
  }

  private void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      running = false;
    }
  }

  /** Stops after the batch in progress (its outcomes stored). */
  @Override
  public void close() {
    running = false;
    wake();
    try {
      thread.join(settings.lease().toMillis() + 5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
