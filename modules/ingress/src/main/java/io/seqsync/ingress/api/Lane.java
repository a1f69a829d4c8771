package io.seqsync.ingress.api;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.seqsync.config.FetchSettings;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A bounded lane of synchronous requests: at most {@code concurrency} run at once, at most
 * {@code queue} more wait, each at most {@code maxWait}; anything beyond is refused at once. The
 * request runs on the HTTP server thread that waited, so a lane holds at most concurrency + queue
 * server threads and, each request using one PostgreSQL connection at a time, at most concurrency
 * connections. Meters: {@code seqsync.ingress.lane.in.flight}, {@code .waiting} (gauges) and
 * {@code .rejected} (counter), tagged {@code lane}. Thread-safe.
 */
public final class Lane {
  /** A permit to run; closing it (once or more) lets the next request in. */
  public final class Permit implements AutoCloseable {
    private final AtomicBoolean open = new AtomicBoolean(true);

    private Permit() {}

    @Override
    public void close() {
      if (open.compareAndSet(true, false)) {
        inFlight.decrementAndGet();
        running.release();
      }
    }
  }

  private final String name;
  private final int queue;
  private final long waitNanos;
  private final Semaphore running;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicInteger waiting = new AtomicInteger();
  private final Counter rejected;

  Lane(FetchSettings.Lane limits, MeterRegistry registry) {
    this.name = limits.name();
    this.queue = limits.queue();
    this.waitNanos = limits.maxWait().toNanos();
    this.running = new Semaphore(limits.concurrency());
    Gauge.builder("seqsync.ingress.lane.in.flight", inFlight, AtomicInteger::get)
        .description("fetches running in the lane").tag("lane", name).register(registry);
    Gauge.builder("seqsync.ingress.lane.waiting", waiting, AtomicInteger::get)
        .description("fetches waiting for the lane").tag("lane", name).register(registry);
    this.rejected = Counter.builder("seqsync.ingress.lane.rejected")
        .description("fetches refused because the lane was full").tag("lane", name).register(registry);
  }

  String name() {
    return name;
  }

  /** A permit, after waiting for one if need be; empty when the lane and its queue are full or the wait ran out. */
  Optional<Permit> enter() {
    // A newcomer may take a freed place ahead of a waiter (no fairness): cheaper, and a waiter's
    // delay is bounded by maxWait anyway.
    if (!running.tryAcquire() && !awaitTurn()) {
      rejected.increment();
      return Optional.empty();
    }
    inFlight.incrementAndGet();
    return Optional.of(new Permit());
  }

  private boolean awaitTurn() {
    if (waiting.incrementAndGet() > queue) {
      waiting.decrementAndGet();
      return false;
    }
    try {
      return running.tryAcquire(waitNanos, TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } finally {
      waiting.decrementAndGet();
    }
  }

  int inFlight() {
    return inFlight.get();
  }

  int waiting() {
    return waiting.get();
  }
}
