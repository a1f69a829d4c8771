package io.seqsync.ingress.limits;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.seqsync.config.LimitsSettings;
import io.seqsync.ingress.auth.Caller;
import io.seqsync.ingress.http.ApiException;
import io.seqsync.ingress.http.Endpoint;
import io.seqsync.redis.RedisLimits;
import io.seqsync.redis.RedisLimits.Bucket;
import io.seqsync.redis.RedisLimits.Verdict;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.exceptions.JedisException;

/**
 * The abuse limits of routes and frames (docs/api.md, "Limits"): a request takes a token of each
 * of its {@link Limit}'s buckets, all or none, in Redis, so that a user has one budget across
 * instances. While Redis does not answer within {@code limits.redis-timeout} the instance's own
 * buckets decide ({@link MemoryBuckets}), for {@link #REDIS_RETRY_MICROS} before Redis is tried
 * again: then a user spread over n instances gets up to n budgets, never none. Refusals are 429
 * {@code rate_limited} with {@code Retry-After}, counted in {@code seqsync_rate_limited_total}
 * by the bucket that refused. Thread-safe.
 */
public final class Limiter {
  static final long REDIS_RETRY_MICROS = TimeUnit.SECONDS.toMicros(1);
  private static final Logger log = LoggerFactory.getLogger(Limiter.class);

  private final Optional<RedisLimits> redis;
  private final MemoryBuckets memory = new MemoryBuckets();
  private final LongSupplier microClock;
  private final Map<Limit, List<Rate>> rates = new EnumMap<>(Limit.class);
  private final Rate frames;
  private final MeterRegistry registry;
  private final Map<String, Counter> refused = new ConcurrentHashMap<>();
  private final Counter fallbacks;
  private volatile long redisAgainAt;

  /** A bucket's settings, in µs. */
  private record Rate(String name, long intervalMicros, long toleranceMicros) {
    static Rate of(String name, LimitsSettings.Rate rate) {
      long interval = Math.max(1, Math.round(TimeUnit.SECONDS.toMicros(1) / rate.perSecond()));
      return new Rate(name, interval, (rate.burst() - 1) * interval);
    }

    Bucket of(long userId, String suffix) {
      return new Bucket(userId, suffix.isEmpty() ? name : name + ":" + suffix, intervalMicros, toleranceMicros);
    }
  }

  /** {@code redis}: empty where there is none (tests); {@code microClock}: monotonic, µs. */
  public Limiter(LimitsSettings limits, Optional<RedisLimits> redis, MeterRegistry registry, LongSupplier microClock) {
    this.redis = redis;
    this.registry = registry;
    this.microClock = microClock;
    this.redisAgainAt = microClock.getAsLong();
    rates.put(Limit.SEND, List.of(Rate.of("send_device", limits.sendDevice()), Rate.of("send_user", limits.sendUser())));
    rates.put(Limit.POSITION, List.of(Rate.of("position_device", limits.positionDevice())));
    rates.put(Limit.DRAFT, List.of(Rate.of("draft_device", limits.draftDevice())));
    rates.put(Limit.GROUP, List.of(Rate.of("group_user", limits.groupUser())));
    rates.put(Limit.TELEMETRY, List.of(Rate.of("telemetry_device", limits.telemetryDevice())));
    rates.put(Limit.SOCKET, List.of(Rate.of("socket_user", limits.socketUser())));
    rates.put(Limit.SERVER, List.of(Rate.of("server_service", limits.serverService())));
    this.frames = Rate.of("frame_socket", limits.frameSocket());
    // Every limit counted from the start, at 0 until it refuses: the dashboard and alerts see them all.
    rates.values().forEach(buckets -> buckets.forEach(rate -> counter(rate.name())));
    counter(frames.name());
    counter(SocketLimits.SOCKETS_USER);
    this.fallbacks = Counter.builder("seqsync.limits.redis.fallback")
        .description("limit checks decided by this instance alone because Redis did not answer").register(registry);
    Gauge.builder("seqsync.limits.shared", this, Limiter::shared)
        .description("1 while the limits are kept in Redis (one budget across instances), 0 while per instance")
        .register(registry);
    Gauge.builder("seqsync.limits.local.buckets", memory, MemoryBuckets::size)
        .description("this instance's token buckets that are not full").register(registry);
  }

  /** The endpoint behind {@code limit}: a request over it is answered 429 and reaches nothing. */
  public Endpoint<Caller> guard(Limit limit, Endpoint<Caller> endpoint) {
    return (caller, request) -> {
      check(limit, caller);
      return endpoint.answer(caller, request);
    };
  }

  /** Takes the caller's tokens of {@code limit}, or throws the 429 {@code rate_limited}. */
  public void check(Limit limit, Caller caller) {
    List<Rate> of = rates.get(limit);
    List<Bucket> buckets = new ArrayList<>(of.size());
    for (Rate rate : of) {
      // A service's bucket is named by the service, which the caller's device stands for.
      boolean named = rate.name().endsWith("_device") || rate.name().endsWith("_service");
      buckets.add(rate.of(caller.userId(), named ? caller.deviceId() : ""));
    }
    Verdict verdict = take(buckets);
    if (!verdict.admitted()) {
      throw refusal(of.get(verdict.bucket()).name(), verdict.waitMicros(),
          "too many requests (" + of.get(verdict.bucket()).name() + "); retry after the Retry-After seconds");
    }
  }

  /** Takes a token of the socket's frame bucket (this instance's: a socket lives here): 0, or the ms to wait. */
  public long frame(long userId, String socketId) {
    Verdict verdict = memory.take(List.of(frames.of(userId, socketId)), microClock.getAsLong());
    if (verdict.admitted()) {
      return 0;
    }
    counter("frame_socket").increment();
    return Math.max(1, TimeUnit.MICROSECONDS.toMillis(verdict.waitMicros()));
  }

  /** Forgets a closed socket's frame bucket. */
  public void socketClosed(long userId, String socketId) {
    memory.forget(frames.of(userId, socketId));
  }

  /** Counts a refusal of {@code name} and makes its 429. */
  ApiException refusal(String name, long waitMicros, String message) {
    counter(name).increment();
    long seconds = (waitMicros + TimeUnit.SECONDS.toMicros(1) - 1) / TimeUnit.SECONDS.toMicros(1);
    return ApiException.retryLater(429, "rate_limited", message, seconds);
  }

  /** Counts a refusal of a limit that is not a bucket (the sockets a user holds). */
  void counted(String name) {
    counter(name).increment();
  }

  /** Whether a check may wait for Redis now (up to {@code limits.redis-timeout}). */
  public boolean waitsForRedis() {
    return redisInUse();
  }

  /** Whether Redis is used now (else this instance decides alone); a failure reported by {@link #redisFailed}. */
  boolean redisInUse() {
    return redis.isPresent() && microClock.getAsLong() - redisAgainAt >= 0;
  }

  void redisFailed(RuntimeException failure) {
    if (redisInUse()) {
      log.warn("Redis did not answer a limit check ({}): limits are per instance for {} s", failure.toString(),
          TimeUnit.MICROSECONDS.toSeconds(REDIS_RETRY_MICROS));
    }
    redisAgainAt = microClock.getAsLong() + REDIS_RETRY_MICROS;
    fallbacks.increment();
  }

  Optional<RedisLimits> redis() {
    return redis;
  }

  long nowMicros() {
    return microClock.getAsLong();
  }

  private Verdict take(List<Bucket> buckets) {
    if (redisInUse()) {
      try {
        return redis.get().take(buckets);
      } catch (JedisException | ClassCastException failure) {
        redisFailed(failure instanceof JedisException jedis ? jedis : new JedisException(failure));
      }
    }
    return memory.take(buckets, microClock.getAsLong());
  }

  private double shared() {
    return redisInUse() ? 1 : 0;
  }

  private Counter counter(String name) {
    return refused.computeIfAbsent(name, key -> Counter.builder("seqsync.rate.limited").tag("limit", key)
        .description("requests, frames and sockets refused by an abuse limit").register(registry));
  }
}
