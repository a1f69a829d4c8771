package io.seqsync.ingress.health;

import io.seqsync.ingress.commands.CommandPublisher;
import io.seqsync.ingress.commands.ReplyWaiter;
import io.seqsync.ingress.http.Answer;
import io.seqsync.ingress.http.Anyone;
import io.seqsync.ingress.http.ApiRequest;
import io.seqsync.ingress.http.ErrorBody;
import io.seqsync.store.ConversationQueries;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * GET /health/live and /health/ready, without a token: every dependency's state, judged by
 * {@link HealthChecks}. Kafka and PostgreSQL are checked here (the ingress's own publisher and
 * pool), the rest by the probes the app gives. Ready waits up to 3 s for a probe, live up to
 * 500 ms: an orchestrator's liveness probe usually gives up after a second, and a slow dependency
 * must not get the process restarted. And GET /health, as before those two: 200 when PostgreSQL
 * answers and Kafka takes commands, else 503, each checked within 3 s.
 */
public final class HealthEndpoints implements AutoCloseable {
  static final Duration READY_WAIT = Duration.ofSeconds(3);
  static final Duration LIVE_WAIT = Duration.ofMillis(500);
  private static final long CHECK_TIMEOUT_MS = 3_000;

  private final CommandPublisher publisher;
  private final ConversationQueries conversations;
  private final ReplyWaiter replies;
  private final Executor workers;
  private final HealthChecks checks;

  public HealthEndpoints(CommandPublisher publisher, ReplyWaiter replies, ConversationQueries conversations,
      List<HealthProbe> probes, Executor workers) {
    this.publisher = publisher;
    this.replies = replies;
    this.conversations = conversations;
    this.workers = workers;
    List<HealthProbe> all = new ArrayList<>();
    all.add(HealthProbe.required("kafka", () -> publisher.isHealthy() ? DependencyState.up(Map.of())
        : DependencyState.down("no broker answered within 2 s: commands cannot be produced", Map.of())));
    all.add(HealthProbe.required("postgres", () -> {
      long began = System.nanoTime();
      conversations.ping();
      return DependencyState.up(Map.of("pingMs", (System.nanoTime() - began) / 1_000_000));
    }));
    all.addAll(probes);
    this.checks = new HealthChecks(all);
  }

  /** GET /health/live: 503 only when the process cannot recover by itself. */
  public CompletableFuture<Answer> live(Anyone caller, ApiRequest request) {
    return answer(checks.live(LIVE_WAIT));
  }

  /** GET /health/ready: 503 when this instance cannot take traffic. */
  public CompletableFuture<Answer> ready(Anyone caller, ApiRequest request) {
    return answer(checks.ready(READY_WAIT));
  }

  /** GET /health: Kafka and PostgreSQL only. */
  public CompletableFuture<Answer> basic(Anyone caller, ApiRequest request) {
    CompletableFuture<Boolean> postgres = check(() -> conversations.ping());
    CompletableFuture<Boolean> kafka = check(publisher::isHealthy);
    return postgres.thenCombine(kafka, (pg, broker) -> {
      Map<String, Object> checks = new LinkedHashMap<>();
      checks.put("postgres", pg ? "up" : "down");
      checks.put("kafka", broker ? "up" : "down");
      // Informational: without the listeners, sends answer 202 rather than fail.
      checks.put("replies", replies.isListening() ? "up" : "down");
      Map<String, Object> body = new LinkedHashMap<>();
      if (pg && broker) {
        body.put("status", "ok");
        body.put("checks", checks);
        return Answer.json(200, body);
      }
      body.put("status", "unavailable");
      body.put("checks", checks);
      body.put("error", new ErrorBody.Error("unavailable", (pg ? "" : "PostgreSQL does not answer. ")
          + (broker ? "" : "Kafka does not answer.")));
      return Answer.json(503, body);
    });
  }

  @Override
  public void close() {
    checks.close();
  }

  private static CompletableFuture<Answer> answer(CompletableFuture<HealthChecks.Verdict> verdict) {
    return verdict.thenApply(answer -> {
      Map<String, Object> dependencies = new LinkedHashMap<>();
      answer.dependencies().forEach((name, state) -> dependencies.put(name, state.view()));
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("status", answer.status());
      body.put("dependencies", dependencies);
      if (answer.problem() != null) {
        body.put("error", new ErrorBody.Error("unavailable", answer.problem()));
      }
      return Answer.json(answer.httpStatus(), body);
    });
  }

  private CompletableFuture<Boolean> check(BooleanSupplier probe) {
    return CompletableFuture.supplyAsync(() -> {
      try {
        return probe.getAsBoolean();
      } catch (RuntimeException e) {
        return false;
      }
    }, workers).completeOnTimeout(false, CHECK_TIMEOUT_MS, TimeUnit.MILLISECONDS);
  }
}
