package io.seqsync.ingress.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class TimedCacheTest {
  private static final class SettableClock extends Clock {
    volatile Instant now = Instant.parse("2026-12-06T00:00:00Z");

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }

  @Test
  void anAnswerServesWhoeverAsksUntilItExpires() {
    SettableClock clock = new SettableClock();
    TimedCache<String, Integer> cache = new TimedCache<>(Duration.ofSeconds(30), clock);
    AtomicInteger computed = new AtomicInteger();

    assertThat(cache.get("week", computed::incrementAndGet)).isEqualTo(1);
    clock.now = clock.now.plusSeconds(29);
    assertThat(cache.get("week", computed::incrementAndGet)).isEqualTo(1);
    assertThat(cache.get("day", computed::incrementAndGet)).as("another key").isEqualTo(2);
    clock.now = clock.now.plusSeconds(1);
    assertThat(cache.get("week", computed::incrementAndGet)).as("expired").isEqualTo(3);
  }

  @Test
  void callersAskingAtOnceShareOneComputation() throws Exception {
    TimedCache<String, Integer> cache = new TimedCache<>(Duration.ofSeconds(30), Clock.systemUTC());
    AtomicInteger computed = new AtomicInteger();
    CountDownLatch release = new CountDownLatch(1);
    List<CompletableFuture<Integer>> callers = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      callers.add(CompletableFuture.supplyAsync(() -> cache.get("week", () -> {
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        return computed.incrementAndGet();
      })));
    }
    Thread.sleep(200);
    release.countDown();
    for (CompletableFuture<Integer> caller : callers) {
      assertThat(caller.get()).isEqualTo(1);
    }
    assertThat(computed).hasValue(1);
  }

  @Test
  void zeroKeepsNothing() {
    TimedCache<String, Integer> cache = new TimedCache<>(Duration.ZERO, Clock.systemUTC());
    AtomicInteger computed = new AtomicInteger();
    cache.get("week", computed::incrementAndGet);
    cache.get("week", computed::incrementAndGet);
    assertThat(computed).hasValue(2);
  }
}
