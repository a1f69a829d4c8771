package io.seqsync.projector;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seqsync.events.Announcements;
import io.seqsync.projector.postgres.AppliedBatch;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class CommitListenersTest {
  @Test
  void everyBatchReachesEveryListenerInCommitOrderEvenAfterAFailureAndBeforeCloseReturns() throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    CommitListeners listeners = new CommitListeners(new ProjectorMetrics(registry));
    List<String> told = new CopyOnWriteArrayList<>();
    CountDownLatch release = new CountDownLatch(1);
    listeners.add(batch -> {
      awaitQuietly(release);
      told.add("index " + batch.result().outcomes().size());
    });
    listeners.add(batch -> {
      told.add("push " + batch.result().outcomes().size());
      throw new IllegalStateException("Redis is down");
    });
    listeners.start();
    // The first listener is held: more batches than the queue holds wait for it, in order.
    Thread projector = new Thread(() -> IntStream.range(0, CommitListeners.CAPACITY + 3)
        .forEach(batch -> listeners.committed(new CommittedBatch(List.of(), result(batch), Map.of()))));
    projector.start();
    assertThat(waitsForTheListeners(projector)).isTrue();
    release.countDown();
    projector.join(10_000);
    listeners.close();

    List<String> expected = IntStream.range(0, CommitListeners.CAPACITY + 3)
        .boxed().flatMap(batch -> List.of("index " + batch, "push " + batch).stream()).toList();
    assertThat(told).containsExactlyElementsOf(expected);
    assertThat(registry.get("seqsync.projector.listener.latency").timers()).hasSize(2)
        .allSatisfy(timer -> assertThat(timer.count()).isEqualTo(CommitListeners.CAPACITY + 3));
  }

  @Test
  void closingListenersThatNeverStartedReturnsAtOnce() {
    new CommitListeners(new ProjectorMetrics(new SimpleMeterRegistry())).close();
  }

  // A result with n outcomes tells the listeners which batch they were given.
  private static AppliedBatch result(int n) {
    return new AppliedBatch(Collections.nCopies(n, Announcements.rejected("command", "d:1:2", "test")), List.of());
  }

  private static boolean waitsForTheListeners(Thread projector) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline) {
      if (projector.getState() == Thread.State.WAITING) {
        return true;
      }
      Thread.sleep(10);
    }
    return false;
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
