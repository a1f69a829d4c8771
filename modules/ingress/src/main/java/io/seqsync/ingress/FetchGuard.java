package io.seqsync.ingress;

import io.javalin.http.Context;
import io.javalin.http.Handler;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.seqsync.config.SeqsyncConfig;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * What every fetch passes before its handler (R23): the device's token bucket, then a lane. First
 * screens (the handshake, the list, activation, the latest messages and a page from the device
 * cursor) run in the {@code first-screen} lane, history paging ({@code before}, {@code after}
 * ranges, the archive) in the {@code paging} lane, each with its own bounded capacity, so a flood
 * of paging can hold neither the connections nor the server threads first screens need. Over the
 * device's rate: 429 {@code rate_limited}; a lane full beyond its bounded wait: 503
 * {@code overloaded} (the server's capacity, not the client's own pace); both with
 * {@code Retry-After} in whole seconds. Only for synchronous handlers: the permit is returned when
 * the handler returns.
 */
final class FetchGuard {
  static final String RETRY_AFTER = "Retry-After";
  // A lane frees within milliseconds; a second is the smallest Retry-After there is.
  private static final long LANE_RETRY_AFTER_SECONDS = 1;

  private final DeviceRateLimiter limiter;
  private final Lane firstScreen;
  private final Lane paging;
  private final Counter rateLimited;

  FetchGuard(SeqsyncConfig.Fetch limits, MeterRegistry registry) {
    this.limiter = new DeviceRateLimiter(limits.ratePerSecond(), limits.burst(), System::nanoTime);
    this.firstScreen = new Lane(limits.firstScreen(), registry);
    this.paging = new Lane(limits.paging(), registry);
    this.rateLimited = Counter.builder("seqsync.ingress.fetch.rate.limited")
        .description("fetches refused because the device was over its rate").register(registry);
    Gauge.builder("seqsync.ingress.fetch.buckets", limiter, DeviceRateLimiter::size)
        .description("devices with a token bucket that is not full").register(registry);
  }

  /** A handler that always runs in the first-screen lane. */
  Handler firstScreen(Handler handler) {
    return guarded(ctx -> firstScreen, handler);
  }

  /** A handler that always runs in the paging lane (the archive). */
  Handler paging(Handler handler) {
    return guarded(ctx -> paging, handler);
  }

  /** GET messages: the lane by the fetch's mode; invalid parameters answer 400 before taking a lane. */
  Handler messages(Handler handler) {
    return guarded(ctx -> switch (FetchRequest.parse(ctx.queryParamMap()).mode()) {
      case LAST, FROM_CURSOR -> firstScreen;
      case BEFORE, AFTER -> paging;
    }, handler);
  }

  private Handler guarded(Function<Context, Lane> laneOf, Handler handler) {
    return ctx -> {
      long waitNanos = limiter.tryAcquire(Authentication.caller(ctx));
      if (waitNanos > 0) {
        rateLimited.increment();
        refuse(ctx, 429, "rate_limited", "too many fetches from this device; retry after the Retry-After seconds",
            Math.max(1, (waitNanos + TimeUnit.SECONDS.toNanos(1) - 1) / TimeUnit.SECONDS.toNanos(1)));
        return;
      }
      Lane lane = laneOf.apply(ctx);
      Optional<Lane.Permit> permit = lane.enter();
      if (permit.isEmpty()) {
        refuse(ctx, 503, "overloaded", "the server's " + lane.name() + " lane is full; retry after the Retry-After seconds",
            LANE_RETRY_AFTER_SECONDS);
        return;
      }
      try (Lane.Permit running = permit.get()) {
        handler.handle(ctx);
      }
    };
  }

  private static void refuse(Context ctx, int status, String code, String message, long retryAfterSeconds) {
    ctx.header(RETRY_AFTER, Long.toString(retryAfterSeconds));
    ErrorHandling.write(ctx, status, code, message);
  }
}
