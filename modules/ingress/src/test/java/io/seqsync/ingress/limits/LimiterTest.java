package io.seqsync.ingress.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seqsync.config.ConfigLoader;
import io.seqsync.config.LimitsSettings;
import io.seqsync.config.RedisEndpoint;
import io.seqsync.ingress.auth.Caller;
import io.seqsync.ingress.http.ApiException;
import io.seqsync.redis.RedisClients;
import io.seqsync.redis.RedisLimits;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import redis.clients.jedis.UnifiedJedis;

/**
 * The limiter's own buckets (what decides while Redis does not answer) on a clock the test moves:
 * a flood gets 429 with Retry-After, never more than the burst plus what the rate refills, a
 * refusal takes nothing, and one user's or device's flood changes no verdict of another's.
 */
class LimiterTest {
  private static final long SECOND = TimeUnit.SECONDS.toMicros(1);
  private static final LimitsSettings LIMITS = ConfigLoader.of(Map.of(
      "limits.send-device.rate", "2", "limits.send-device.burst", "4",
      "limits.send-user.rate", "3", "limits.send-user.burst", "6")).limits();

  /** A request: who, and how long after the one before it. */
  record Request(long userId, String deviceId, long afterMicros) {}

  @Provide
  Arbitrary<List<Request>> requests() {
    return Combinators.combine(Arbitraries.longs().between(1, 3), Arbitraries.of("phone", "laptop", "tablet"),
        Arbitraries.longs().between(0, SECOND)).as(Request::new).list().ofMaxSize(200);
  }

  @Property(tries = 200)
  void aUsersVerdictsAreTheSameWhateverOtherUsersDo(@ForAll("requests") List<Request> requests) {
    List<Boolean> alone = verdicts(requests, request -> request.userId() == 1);
    List<Boolean> together = verdicts(requests, request -> true);
    for (int i = 0; i < requests.size(); i++) {
      if (requests.get(i).userId() == 1) {
        assertThat(together.get(i)).as("request %d of user 1", i).isEqualTo(alone.get(i));
      }
    }
  }

  @Property(tries = 200)
  void noDeviceNorUserGetsMoreThanItsBurstAndWhatTheRateRefilled(@ForAll("requests") List<Request> requests) {
    List<Boolean> verdicts = verdicts(requests, request -> true);
    long elapsed = requests.stream().mapToLong(Request::afterMicros).sum();
    Map<String, Integer> byDevice = new HashMap<>();
    Map<Long, Integer> byUser = new HashMap<>();
    for (int i = 0; i < requests.size(); i++) {
      if (verdicts.get(i)) {
        byDevice.merge(requests.get(i).userId() + "/" + requests.get(i).deviceId(), 1, Integer::sum);
        byUser.merge(requests.get(i).userId(), 1, Integer::sum);
      }
    }
    double seconds = (double) elapsed / SECOND;
    byDevice.values().forEach(admitted -> assertThat(admitted).isLessThanOrEqualTo(4 + (int) Math.ceil(2 * seconds)));
    byUser.values().forEach(admitted -> assertThat(admitted).isLessThanOrEqualTo(6 + (int) Math.ceil(3 * seconds)));
  }

  @Example
  void aFloodGets429WithRetryAfterAndARefusalTakesNothing() {
    AtomicLong clock = new AtomicLong(-7 * SECOND);
    Limiter limiter = new Limiter(LIMITS, Optional.empty(), new SimpleMeterRegistry(), clock::get);
    Caller phone = new Caller(1, "phone");
    for (int i = 0; i < 4; i++) {
      limiter.check(Limit.SEND, phone);
    }
    for (int i = 0; i < 10; i++) {
      assertThatThrownBy(() -> limiter.check(Limit.SEND, phone)).isInstanceOfSatisfying(ApiException.class, refused -> {
        assertThat(refused.status()).isEqualTo(429);
        assertThat(refused.code()).isEqualTo("rate_limited");
        assertThat(refused.retryAfterSeconds()).isEqualTo(1);
      });
    }
    // Ten refusals took nothing: half a second later, one token.
    clock.addAndGet(SECOND / 2);
    limiter.check(Limit.SEND, phone);
    assertThatThrownBy(() -> limiter.check(Limit.SEND, phone)).isInstanceOf(ApiException.class);
  }

  @Example
  void whileRedisDoesNotAnswerThisInstanceLimitsAlone() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    // Nothing listens on port 1: each attempt fails at once, and Redis is left alone for a while.
    try (UnifiedJedis nowhere = RedisClients.connect(RedisEndpoint.parse("redis://127.0.0.1:1"), Duration.ofMillis(50))) {
      Limiter limiter = new Limiter(LIMITS, Optional.of(new RedisLimits(nowhere)), registry,
          () -> TimeUnit.NANOSECONDS.toMicros(System.nanoTime()));
      Caller phone = new Caller(1, "phone");
      for (int i = 0; i < 4; i++) {
        limiter.check(Limit.SEND, phone);
      }
      assertThatThrownBy(() -> limiter.check(Limit.SEND, phone)).isInstanceOf(ApiException.class);
      assertThat(limiter.waitsForRedis()).isFalse();
      assertThat(registry.get("seqsync.limits.shared").gauge().value()).isZero();
      assertThat(registry.get("seqsync.limits.redis.fallback").counter().count()).isEqualTo(1);
      assertThat(registry.get("seqsync.rate.limited").tag("limit", "send_device").counter().count()).isEqualTo(1);
    }
  }

  // Runs the requests on one limiter with a fake clock, those not made only moving the clock: admitted or not, each.
  private static List<Boolean> verdicts(List<Request> requests, Predicate<Request> made) {
    AtomicLong clock = new AtomicLong(-3 * SECOND); // nanoTime, and so the clock, may be negative
    Limiter limiter = new Limiter(LIMITS, Optional.empty(), new SimpleMeterRegistry(), clock::get);
    List<Boolean> verdicts = new ArrayList<>();
    for (Request request : requests) {
      clock.addAndGet(request.afterMicros());
      if (!made.test(request)) {
        verdicts.add(null);
        continue;
      }
      try {
        limiter.check(Limit.SEND, new Caller(request.userId(), request.deviceId()));
        verdicts.add(true);
      } catch (ApiException refused) {
        verdicts.add(false);
      }
    }
    return verdicts;
  }
}
