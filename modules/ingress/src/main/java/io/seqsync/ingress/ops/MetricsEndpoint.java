package io.seqsync.ingress.ops;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.seqsync.ingress.http.Answer;
import io.seqsync.ingress.http.Anyone;
import io.seqsync.ingress.http.ApiRequest;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** GET /metrics, without a token (scrapers have none): the registry in the Prometheus text format. */
public final class MetricsEndpoint {
  private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

  private final PrometheusMeterRegistry registry;

  public MetricsEndpoint(PrometheusMeterRegistry registry) {
    this.registry = registry;
  }

  public Answer metrics(Anyone caller, ApiRequest request) {
    return new Answer(200, PROMETHEUS_TEXT, registry.scrape().getBytes(StandardCharsets.UTF_8), Map.of());
  }
}
