package io.seqsync.ingress.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqsync.ingress.auth.Caller;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The token buckets on a clock the test moves by hand. */
class DeviceRateLimiterTest {
  private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
  private static final Caller PHONE = new Caller(1, "phone");
  private static final Caller LAPTOP = new Caller(1, "laptop");

  private final AtomicLong clock = new AtomicLong(-5 * SECOND); // nanoTime may be negative
  private final DeviceRateLimiter limiter = new DeviceRateLimiter(2, 3, clock::get);

  @Test
  void aBurstIsAdmittedThenTheNextWaitsForOneToken() {
    assertThat(limiter.tryAcquire(PHONE)).isZero();
    assertThat(limiter.tryAcquire(PHONE)).isZero();
    assertThat(limiter.tryAcquire(PHONE)).isZero();
    // Two a second: the next token is half a second away, and refusing takes none.
    assertThat(limiter.tryAcquire(PHONE)).isEqualTo(SECOND / 2);
    assertThat(limiter.tryAcquire(PHONE)).isEqualTo(SECOND / 2);
  }

  @Test
  void otherDevicesOfTheSameUserHaveTheirOwnBucket() {
    for (int i = 0; i < 3; i++) {
      limiter.tryAcquire(PHONE);
    }
    assertThat(limiter.tryAcquire(PHONE)).isPositive();
    assertThat(limiter.tryAcquire(LAPTOP)).isZero();
    assertThat(limiter.tryAcquire(new Caller(2, "phone"))).isZero();
  }

  @Test
  void tokensRefillAtTheRateUpToTheBurst() {
    for (int i = 0; i < 3; i++) {
      limiter.tryAcquire(PHONE);
    }
    clock.addAndGet(SECOND / 2 - 1);
    assertThat(limiter.tryAcquire(PHONE)).isEqualTo(1);
    clock.addAndGet(1);
    assertThat(limiter.tryAcquire(PHONE)).isZero();
    assertThat(limiter.tryAcquire(PHONE)).isPositive();

    // A long pause fills the bucket to the burst, never beyond it.
    clock.addAndGet(60 * SECOND);
    for (int i = 0; i < 3; i++) {
      assertThat(limiter.tryAcquire(PHONE)).isZero();
    }
    assertThat(limiter.tryAcquire(PHONE)).isPositive();
  }

  @Test
  void fullBucketsAreDroppedSoMemoryFollowsOnlyRecentDevices() {
    for (int device = 0; device < 1000; device++) {
      limiter.tryAcquire(new Caller(device, "phone"));
    }
    assertThat(limiter.size()).isEqualTo(1000);

    // Past the sweep interval every bucket has refilled: the next request sweeps them all.
    clock.addAndGet(DeviceRateLimiter.SWEEP_INTERVAL_NANOS);
    limiter.tryAcquire(PHONE);
    assertThat(limiter.size()).isEqualTo(1);

    // At the next sweep a bucket that has not refilled yet survives, its tokens still taken.
    clock.addAndGet(DeviceRateLimiter.SWEEP_INTERVAL_NANOS - 1);
    limiter.tryAcquire(LAPTOP);
    limiter.tryAcquire(LAPTOP);
    clock.addAndGet(1);
    assertThat(limiter.tryAcquire(LAPTOP)).isZero();
    assertThat(limiter.size()).isEqualTo(1);
    assertThat(limiter.tryAcquire(LAPTOP)).isPositive();
  }
}
