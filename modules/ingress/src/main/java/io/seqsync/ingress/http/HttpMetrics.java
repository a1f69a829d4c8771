package io.seqsync.ingress.http;

import io.javalin.http.Context;
import io.javalin.router.Endpoint;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A timer per route, method and status ({@code http.server.requests}, in Prometheus
 * {@code http_server_requests_seconds}), recorded when a request ends. The route is the matched
 * path template, so ids in paths do not multiply the series; unknown paths count as
 * {@code unmatched}.
 */
public final class HttpMetrics {
  private final MeterRegistry registry;
  // One timer per series, built once: a request only looks it up.
  private final Map<Series, Timer> timers = new ConcurrentHashMap<>();

  private record Series(String method, String route, int status) {}

  public HttpMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  public void record(Context ctx, Float millis) {
    record(ctx.method().name(), route(ctx), ctx.statusCode(), (long) (millis * 1_000_000L));
  }

  /** A request of a route served outside Javalin. */
  void record(String method, String route, int status, long nanos) {
    timers.computeIfAbsent(new Series(method, route, status), this::timer).record(nanos, TimeUnit.NANOSECONDS);
  }

  private Timer timer(Series series) {
    return Timer.builder("http.server.requests")
        .description("HTTP requests by route, method and status")
        .tag("method", series.method())
        .tag("route", series.route())
        .tag("status", Integer.toString(series.status()))
        .publishPercentileHistogram(false)
        .register(registry);
  }

  private static String route(Context ctx) {
    try {
      Endpoint endpoint = ctx.endpoints().matchedHttpEndpoint();
      return endpoint == null ? "unmatched" : endpoint.path;
    } catch (RuntimeException e) {
      return "unmatched";
    }
  }
}
