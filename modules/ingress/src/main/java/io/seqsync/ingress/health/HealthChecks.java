package io.seqsync.ingress.health;

import io.seqsync.ingress.health.DependencyState.State;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs the health probes and judges their states. A probe's result is reused for a second (probes
 * stay cheap however often an orchestrator asks), at most one check of a probe runs at a time
 * (a hung dependency holds one thread, not one per request), and an answer waits for a probe at
 * most a given time: a probe still running then counts as down ("no answer within ..."). The
 * checks run on threads of their own, never the ingress's workers. Thread-safe.
 */
final class HealthChecks implements AutoCloseable {
  private static final long FRESH_NANOS = TimeUnit.SECONDS.toNanos(1);

  /** What an answer says: 200 or 503, its status word, every dependency's state, and why when 503. */
  record Verdict(int httpStatus, String status, Map<String, DependencyState> dependencies, String problem) {}

  private final List<Check> checks;
  private final ExecutorService threads;

  HealthChecks(List<HealthProbe> probes) {
    this.checks = probes.stream().map(Check::new).toList();
    AtomicInteger count = new AtomicInteger();
    this.threads = Executors.newCachedThreadPool(runnable -> {
      Thread thread = new Thread(runnable, "health-probe-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    });
  }

  /**
   * Liveness: 503 ({@code failed}) only when a dependency failed for good, which only a restart of
   * the process mends; 200 otherwise, {@code degraded} when anything is not up.
   */
  CompletableFuture<Verdict> live(Duration wait) {
    return states(wait).thenApply(states -> {
      List<String> failed = names(states, State.FAILED, false);
      if (!failed.isEmpty()) {
        return new Verdict(503, "failed", dependencies(states),
            "failed for good, restart the process: " + String.join(", ", failed));
      }
      return new Verdict(200, allUp(states) ? "ok" : "degraded", dependencies(states), null);
    });
  }

  /**
   * Readiness: 503 ({@code unavailable}) when a required dependency is down or any failed for good;
   * 200 otherwise, {@code degraded} when anything is not up (Redis down, the sequencer rebalancing,
   * the projection behind).
   */
  CompletableFuture<Verdict> ready(Duration wait) {
    return states(wait).thenApply(states -> {
      List<String> missing = new ArrayList<>(names(states, State.FAILED, false));
      missing.addAll(names(states, State.DOWN, true));
      if (!missing.isEmpty()) {
        return new Verdict(503, "unavailable", dependencies(states), "not ready: " + String.join(", ", missing));
      }
      return new Verdict(200, allUp(states) ? "ok" : "degraded", dependencies(states), null);
    });
  }

  @Override
  public void close() {
    threads.shutdownNow();
  }

  private record Result(HealthProbe probe, DependencyState state) {}

  private CompletableFuture<Map<String, Result>> states(Duration wait) {
    List<CompletableFuture<Result>> running = checks.stream().map(check -> check.current(threads)
        .copy()
        .completeOnTimeout(DependencyState.down("no answer within " + wait.toMillis() + " ms", Map.of()),
            wait.toMillis(), TimeUnit.MILLISECONDS)
        .thenApply(state -> new Result(check.probe, state))).toList();
    return CompletableFuture.allOf(running.toArray(CompletableFuture[]::new)).thenApply(done -> {
      Map<String, Result> states = new LinkedHashMap<>();
      running.forEach(result -> states.put(result.join().probe().name(), result.join()));
      return states;
    });
  }

  // "name state" of the dependencies in that state (only the required ones when requiredOnly).
  private static List<String> names(Map<String, Result> states, State state, boolean requiredOnly) {
    return states.values().stream()
        .filter(result -> result.state().state() == state && (!requiredOnly || result.probe().required()))
        .map(result -> result.probe().name() + " " + state.json()).toList();
  }

  private static boolean allUp(Map<String, Result> states) {
    return states.values().stream().allMatch(result -> result.state().state() == State.UP);
  }

  private static Map<String, DependencyState> dependencies(Map<String, Result> states) {
    Map<String, DependencyState> dependencies = new LinkedHashMap<>();
    states.forEach((name, result) -> dependencies.put(name, result.state()));
    return dependencies;
  }

  /** One probe's latest result and the check in progress, if any. */
  private static final class Check {
    private final HealthProbe probe;
    private DependencyState last;
    private long checkedAt;
    private CompletableFuture<DependencyState> running;

    Check(HealthProbe probe) {
      this.probe = probe;
    }

    synchronized CompletableFuture<DependencyState> current(ExecutorService threads) {
      if (running != null) {
        return running;
      }
      if (last != null && System.nanoTime() - checkedAt < FRESH_NANOS) {
        return CompletableFuture.completedFuture(last);
      }
      CompletableFuture<DependencyState> check = CompletableFuture.supplyAsync(this::checkNow, threads);
      running = check;
      check.whenComplete((state, error) -> finished(
          error == null ? state : DependencyState.down(String.valueOf(error), Map.of())));
      return check;
    }

    private synchronized void finished(DependencyState state) {
      last = state;
      checkedAt = System.nanoTime();
      running = null;
    }

    private DependencyState checkNow() {
      try {
        return probe.check();
      } catch (RuntimeException e) {
        return DependencyState.down(String.valueOf(e.getMessage()), Map.of("exception", e.getClass().getSimpleName()));
      }
    }
  }
}
