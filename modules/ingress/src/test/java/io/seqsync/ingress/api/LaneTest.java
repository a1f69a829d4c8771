package io.seqsync.ingress.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seqsync.config.FetchSettings;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A lane's bounds: what runs, what waits, what is refused, and its meters. */
class LaneTest {
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  private Lane lane(int concurrency, int queue, Duration wait) {
    return new Lane(new FetchSettings.Lane("paging", concurrency, queue, wait), registry);
  }

  @Test
  void beyondItsConcurrencyWithoutQueueARequestIsRefusedAtOnce() {
    Lane lane = lane(2, 0, Duration.ofMinutes(1));
    Optional<Lane.Permit> first = lane.enter();
    Optional<Lane.Permit> second = lane.enter();
    assertThat(first).isPresent();
    assertThat(second).isPresent();
    assertThat(lane.enter()).isEmpty();
    assertThat(gauge("seqsync.ingress.lane.in.flight")).isEqualTo(2);
    assertThat(registry.get("seqsync.ingress.lane.rejected").tag("lane", "paging").counter().count()).isEqualTo(1);

    // Closing twice frees one place, not two.
    first.get().close();
    first.get().close();
    Optional<Lane.Permit> third = lane.enter();
    assertThat(third).isPresent();
    assertThat(lane.enter()).isEmpty();
    assertThat(lane.inFlight()).isEqualTo(2);
  }

  @Test
  void aQueuedRequestRunsWhenAPlaceFreesAndTheQueueIsBounded() throws Exception {
    Lane lane = lane(1, 1, Duration.ofMinutes(1));
    Lane.Permit running = lane.enter().orElseThrow();
    CompletableFuture<Optional<Lane.Permit>> queued = CompletableFuture.supplyAsync(lane::enter);
    while (lane.waiting() == 0) {
      Thread.onSpinWait();
    }
    assertThat(gauge("seqsync.ingress.lane.waiting")).isEqualTo(1);
    // The queue holds one: a third is refused without waiting for the minute.
    assertThat(lane.enter()).isEmpty();
    assertThat(queued).isNotDone();

    running.close();
    assertThat(queued.get(30, TimeUnit.SECONDS)).isPresent();
    assertThat(lane.waiting()).isZero();
    assertThat(lane.inFlight()).isEqualTo(1);
  }

  @Test
  void aQueuedRequestIsRefusedWhenItsWaitRunsOut() {
    Lane lane = lane(1, 4, Duration.ZERO);
    Lane.Permit running = lane.enter().orElseThrow();
    assertThat(lane.enter()).isEmpty();
    assertThat(lane.waiting()).isZero();
    running.close();
    assertThat(lane.enter()).isPresent();
  }

  private double gauge(String name) {
    return registry.get(name).tag("lane", "paging").gauge().value();
  }
}
