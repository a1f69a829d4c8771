package io.seqsync.ingress.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * How the health answers judge their probes' states (the probes here are plain functions; the
 * app's own, on real servers, are tested end to end in the app module).
 */
class HealthChecksTest {
  private static final Duration WAIT = Duration.ofMillis(300);

  @Test
  void everythingUpIsOkForBoth() throws Exception {
    try (HealthChecks checks = new HealthChecks(List.of(up("kafka", true), up("redis", false)))) {
      assertVerdict(checks.ready(WAIT).get(10, TimeUnit.SECONDS), 200, "ok");
      assertVerdict(checks.live(WAIT).get(10, TimeUnit.SECONDS), 200, "ok");
    }
  }

  @Test
  void anOptionalDependencyDownDegradesReadinessWithoutFailingIt() throws Exception {
    try (HealthChecks checks = new HealthChecks(List.of(up("kafka", true),
        HealthProbe.optional("redis", () -> DependencyState.down("refused", Map.of("impact", "no push")))))) {
      HealthChecks.Verdict ready = checks.ready(WAIT).get(10, TimeUnit.SECONDS);
      assertVerdict(ready, 200, "degraded");
      assertThat(ready.dependencies().get("redis").view())
          .containsExactly(Map.entry("state", "down"), Map.entry("error", "refused"), Map.entry("impact", "no push"));
      assertVerdict(checks.live(WAIT).get(10, TimeUnit.SECONDS), 200, "degraded");
    }
  }

  @Test
  void aRequiredDependencyDownMakesItUnreadyButAlive() throws Exception {
    try (HealthChecks checks = new HealthChecks(List.of(up("kafka", true),
        HealthProbe.required("postgres", () -> {
          throw new IllegalStateException("connection refused");
        })))) {
      HealthChecks.Verdict ready = checks.ready(WAIT).get(10, TimeUnit.SECONDS);
      assertVerdict(ready, 503, "unavailable");
      assertThat(ready.problem()).isEqualTo("not ready: postgres down");
      assertThat(ready.dependencies().get("postgres").detail()).containsEntry("error", "connection refused");
      assertVerdict(checks.live(WAIT).get(10, TimeUnit.SECONDS), 200, "degraded");
    }
  }

  @Test
  void aDependencyFailedForGoodFailsLivenessAndReadiness() throws Exception {
    try (HealthChecks checks = new HealthChecks(List.of(up("kafka", true),
        HealthProbe.optional("sequencer", () -> DependencyState.failed("Kafka Streams is ERROR", Map.of()))))) {
      HealthChecks.Verdict live = checks.live(WAIT).get(10, TimeUnit.SECONDS);
      assertVerdict(live, 503, "failed");
      assertThat(live.problem()).contains("sequencer failed");
      assertVerdict(checks.ready(WAIT).get(10, TimeUnit.SECONDS), 503, "unavailable");
    }
  }

  @Test
  void aHungProbeIsAnsweredAsDownWithinTheWaitAndRunsOnceAtATime() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger started = new AtomicInteger();
    HealthProbe hung = HealthProbe.required("postgres", () -> {
      started.incrementAndGet();
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return DependencyState.up(Map.of());
    });
    try (HealthChecks checks = new HealthChecks(List.of(up("kafka", true), hung))) {
      for (int i = 0; i < 3; i++) {
        HealthChecks.Verdict ready = checks.ready(WAIT).get(10, TimeUnit.SECONDS);
        assertVerdict(ready, 503, "unavailable");
        assertThat(ready.dependencies().get("postgres").detail()).containsEntry("error", "no answer within 300 ms");
      }
      assertThat(started).as("one check at a time: the later answers wait for the running one").hasValue(1);
      release.countDown();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      HealthChecks.Verdict recovered;
      do {
        recovered = checks.ready(WAIT).get(10, TimeUnit.SECONDS);
      } while (recovered.httpStatus() != 200 && System.nanoTime() < deadline);
      assertVerdict(recovered, 200, "ok");
    }
  }

  @Test
  void aResultIsReusedForASecond() throws Exception {
    AtomicInteger checked = new AtomicInteger();
    HealthProbe counted = HealthProbe.optional("redis", () -> {
      checked.incrementAndGet();
      return DependencyState.up(Map.of());
    });
    try (HealthChecks checks = new HealthChecks(List.of(counted))) {
      long began = System.nanoTime();
      checks.ready(WAIT).get(10, TimeUnit.SECONDS);
      checks.live(WAIT).get(10, TimeUnit.SECONDS);
      checks.ready(WAIT).get(10, TimeUnit.SECONDS);
      if (System.nanoTime() - began < TimeUnit.MILLISECONDS.toNanos(900)) { // else the machine stalled: nothing to say
        assertThat(checked).hasValue(1);
      }
      Thread.sleep(1_100);
      checks.ready(WAIT).get(10, TimeUnit.SECONDS);
      assertThat(checked.get()).isGreaterThan(1);
    }
  }

  private static HealthProbe up(String name, boolean required) {
    return required ? HealthProbe.required(name, () -> DependencyState.up(Map.of()))
        : HealthProbe.optional(name, () -> DependencyState.up(Map.of()));
  }

  private static void assertVerdict(HealthChecks.Verdict verdict, int httpStatus, String status) {
    assertThat(verdict.httpStatus()).as("%s", verdict).isEqualTo(httpStatus);
    assertThat(verdict.status()).as("%s", verdict).isEqualTo(status);
  }
}
