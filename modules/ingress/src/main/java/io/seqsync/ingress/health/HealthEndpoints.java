package io.seqsync.ingress.health;

import io.seqsync.ingress.commands.CommandPublisher;
import io.seqsync.ingress.api.Views;

import io.javalin.http.Context;
import io.seqsync.store.ConversationQueries;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * GET /health/live and /health/ready, without a token: every dependency's state, judged by
 * {@link HealthChecks}. Kafka and PostgreSQL are checked here (the ingress's own publisher and
 * pool), the rest by the probes the app gives. Ready waits up to 3 s for a probe, live up to
 * 500 ms: an orchestrator's liveness probe usually gives up after a second, and a slow dependency
 * must not get the process restarted.
 */
public final class HealthEndpoints implements AutoCloseable {
  static final Duration READY_WAIT = Duration.ofSeconds(3);
  static final Duration LIVE_WAIT = Duration.ofMillis(500);

  private final HealthChecks checks;

  public HealthEndpoints(CommandPublisher publisher, ConversationQueries conversations, List<HealthProbe> probes) {
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
  public void live(Context ctx) {
    answer(ctx, checks.live(LIVE_WAIT));
  }

  /** GET /health/ready: 503 when this instance cannot take traffic. */
  public void ready(Context ctx) {
    answer(ctx, checks.ready(READY_WAIT));
  }

  @Override
  public void close() {
    checks.close();
  }

  private static void answer(Context ctx, CompletableFuture<HealthChecks.Verdict> verdict) {
    ctx.future(() -> verdict.thenAccept(answer -> {
      Map<String, Object> dependencies = new LinkedHashMap<>();
      answer.dependencies().forEach((name, state) -> dependencies.put(name, state.view()));
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("status", answer.status());
      body.put("dependencies", dependencies);
      if (answer.problem() != null) {
        body.put("error", new Views.Error("unavailable", answer.problem()));
      }
      ctx.status(answer.httpStatus()).json(body);
    }));
  }
}
