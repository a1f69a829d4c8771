package io.seqsync.ingress.ops;

import io.seqsync.ingress.commands.CommandPublisher;
import io.seqsync.ingress.commands.ReplyWaiter;
import io.seqsync.ingress.api.Views;

import io.javalin.http.Context;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.seqsync.store.ConversationQueries;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * Health and metrics, without a token (probes and scrapers have none). Health is 200 when
 * PostgreSQL answers and Kafka takes commands, else 503, each checked within 3 s.
 */
public final class OpsEndpoints {
  private static final long CHECK_TIMEOUT_MS = 3_000;
  private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

  private final ConversationQueries conversations;
  private final CommandPublisher publisher;
  private final ReplyWaiter replies;
  private final PrometheusMeterRegistry registry;
  private final Executor workers;

  public OpsEndpoints(ConversationQueries conversations, CommandPublisher publisher, ReplyWaiter replies,
      PrometheusMeterRegistry registry, Executor workers) {
    this.conversations = conversations;
    this.publisher = publisher;
    this.replies = replies;
    this.registry = registry;
    this.workers = workers;
  }

  /** GET /health. */
  public void health(Context ctx) {
    CompletableFuture<Boolean> postgres = check(() -> conversations.ping());
    CompletableFuture<Boolean> kafka = check(publisher::isHealthy);
    ctx.future(() -> postgres.thenCombine(kafka, (pg, broker) -> {
      Map<String, Object> checks = new LinkedHashMap<>();
      checks.put("postgres", pg ? "up" : "down");
      checks.put("kafka", broker ? "up" : "down");
      // Informational: without the listeners, sends answer 202 rather than fail.
      checks.put("replies", replies.isListening() ? "up" : "down");
      Map<String, Object> body = new LinkedHashMap<>();
      if (pg && broker) {
        body.put("status", "ok");
        body.put("checks", checks);
        ctx.status(200).json(body);
      } else {
        body.put("status", "unavailable");
        body.put("checks", checks);
        body.put("error", new Views.Error("unavailable", (pg ? "" : "PostgreSQL does not answer. ")
            + (broker ? "" : "Kafka does not answer.")));
        ctx.status(503).json(body);
      }
      return null;
    }));
  }

  /** GET /metrics: the registry in the Prometheus text format. */
  public void metrics(Context ctx) {
    ctx.contentType(PROMETHEUS_TEXT).result(registry.scrape());
  }

  private CompletableFuture<Boolean> check(java.util.function.BooleanSupplier probe) {
    return CompletableFuture.supplyAsync(() -> {
      try {
        return probe.getAsBoolean();
      } catch (RuntimeException e) {
        return false;
      }
    }, workers).completeOnTimeout(false, CHECK_TIMEOUT_MS, TimeUnit.MILLISECONDS);
  }
}
