package io.seqsync.ingress.api;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.seqsync.config.FetchSettings;
import io.seqsync.ingress.auth.Caller;
import io.seqsync.ingress.http.ApiException;
import io.seqsync.ingress.http.Endpoint;
import java.util.concurrent.TimeUnit;

/**
 * What every fetch passes before its handler (R23): the device's token bucket, then a lane. First
 * screens (the handshake, the list, activation, the latest messages and a page from the device
 * cursor) run in the {@code first-screen} lane, history paging ({@code before}, {@code after}
 * ranges, the archive) in the {@code paging} lane, each with its own bounded capacity, so a flood
 * of paging can hold neither the connections nor the server threads first screens need. Over the
 * device's rate: 429 {@code rate_limited}; a lane full beyond its bounded wait: 503
 * {@code overloaded} (the server's capacity, not the client's own pace); both with
 * {@code Retry-After} in whole seconds. Only for endpoints that answer at once: the permit is
 * returned when the endpoint returns. Thread-safe.
 */
public final class FetchGuard {
  // A lane frees within milliseconds; a second is the smallest Retry-After there is.
  private static final long LANE_RETRY_AFTER_SECONDS = 1;

  private final DeviceRateLimiter limiter;
  private final Lane firstScreen;
  private final Lane paging;
  private final Counter rateLimited;

  public FetchGuard(FetchSettings limits, MeterRegistry registry) {
    this.limiter = new DeviceRateLimiter(limits.ratePerSecond(), limits.burst(), System::nanoTime);
    this.firstScreen = new Lane(limits.firstScreen(), registry);
    this.paging = new Lane(limits.paging(), registry);
    this.rateLimited = Counter.builder("seqsync.ingress.fetch.rate.limited")
        .description("fetches refused because the device was over its rate").register(registry);
    Gauge.builder("seqsync.ingress.fetch.buckets", limiter, DeviceRateLimiter::size)
        .description("devices with a token bucket that is not full").register(registry);
  }

  /** An endpoint that always runs in the first-screen lane. */
  public Endpoint<Caller> firstScreen(Endpoint<Caller> endpoint) {
    return inLane(firstScreen, endpoint);
  }

  /** An endpoint that always runs in the paging lane (the archive). */
  public Endpoint<Caller> paging(Endpoint<Caller> endpoint) {
    return inLane(paging, endpoint);
  }

  private Endpoint<Caller> inLane(Lane lane, Endpoint<Caller> endpoint) {
    return (caller, request) -> {
      try (Lane.Permit running = admit(caller, lane)) {
        return endpoint.answer(caller, request);
      }
    };
  }

  /**
   * Lets the handshake a push socket gets on connecting into the first-screen lane: outside the
   * device's bucket (one per connection), but within the lane's bounds, so that a storm of
   * reconnecting devices queues for PostgreSQL's connections instead of taking them all.
   */
  public Lane.Permit admitStreamHandshake() {
    return enter(firstScreen);
  }

  /** Lets a page of messages in, into the lane of its mode: latest and from-cursor pages are first screens. */
  public Lane.Permit admitPage(Caller caller, FetchRequest.Mode mode) {
    return admit(caller, switch (mode) {
      case LAST, FROM_CURSOR -> firstScreen;
      case BEFORE, AFTER -> paging;
    });
  }

  /**
   * Lets the caller's fetch into {@code lane}: a permit to close when it is done, or a 429 or 503
   * {@link ApiException} with its Retry-After.
   */
  private Lane.Permit admit(Caller caller, Lane lane) {
    long waitNanos = limiter.tryAcquire(caller);
    if (waitNanos > 0) {
      rateLimited.increment();
      throw ApiException.retryLater(429, "rate_limited",
          "too many fetches from this device; retry after the Retry-After seconds",
          (waitNanos + TimeUnit.SECONDS.toNanos(1) - 1) / TimeUnit.SECONDS.toNanos(1));
    }
    return enter(lane);
  }

  private static Lane.Permit enter(Lane lane) {
    return lane.enter().orElseThrow(() -> ApiException.retryLater(503, "overloaded",
        "the server's " + lane.name() + " lane is full; retry after the Retry-After seconds", LANE_RETRY_AFTER_SECONDS));
  }
}
