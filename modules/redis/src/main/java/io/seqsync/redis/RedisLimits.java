package io.seqsync.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.HashMap;
import java.util.Map;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.ZAddParams;

/**
 * The abuse limits' shared state (docs/design.md, "Abuse limits"): token buckets and each user's
 * open push sockets, one budget for a user however many instances serve them. Every key carries
 * the user's hash tag, so one script touches one slot of a Redis Cluster. Each call is one round
 * trip; a failure is the caller's to fall back on ({@link redis.clients.jedis.exceptions.JedisException}).
 * Thread-safe.
 */
public final class RedisLimits {
  private static final String PREFIX = IndexKeys.PREFIX + "limit:{";
  private static final RedisScript RATE = RedisScript.load("rate_limit.lua");
  private static final RedisScript SOCKETS = RedisScript.load("sockets.lua");

  /** A bucket to take a token of: its name (with the user's id first), interval and tolerance in µs. */
  public record Bucket(long userId, String name, long intervalMicros, long toleranceMicros) {}

  /** Admitted ({@code waitMicros} 0), or refused: the µs until every bucket has a token, and which bucket (index) waits longest. */
  public record Verdict(long waitMicros, int bucket) {
    public static final Verdict ADMITTED = new Verdict(0, -1);

    public boolean admitted() {
      return waitMicros <= 0;
    }
  }

  private final UnifiedJedis redis;

  /** {@code redis}: a client whose timeouts are the limits' (short: a request waits for it). */
  public RedisLimits(UnifiedJedis redis) {
    this.redis = redis;
  }

  /**
   * Takes a token of every bucket, all of one user, or none (then nothing changes).
   */
  public Verdict take(List<Bucket> buckets) {
    List<String> keys = new ArrayList<>(buckets.size());
    List<String> args = new ArrayList<>(2 * buckets.size());
    for (Bucket bucket : buckets) {
      keys.add(PREFIX + bucket.userId() + "}:" + bucket.name());
      args.add(Long.toString(bucket.intervalMicros()));
      args.add(Long.toString(bucket.toleranceMicros()));
    }
    List<?> answer = (List<?>) RATE.run(redis, keys, args);
    long wait = ((Number) answer.get(0)).longValue();
    return wait <= 0 ? Verdict.ADMITTED : new Verdict(wait, ((Number) answer.get(1)).intValue() - 1);
  }

  /**
   * Adds {@code socketId} to the user's open sockets until {@code expiresAtMillis}, unless the user
   * holds {@code cap} already (counting neither the expired nor {@code replaced}): whether it was added.
   */
  public boolean openSocket(long userId, String socketId, List<String> replaced, int cap, long nowMillis,
      long expiresAtMillis) {
    List<String> args = new ArrayList<>(List.of(Long.toString(nowMillis), Long.toString(expiresAtMillis),
        Integer.toString(cap), socketId));
    args.addAll(replaced);
    return ((Number) SOCKETS.run(redis, List.of(sockets(userId)), args)).longValue() == 1;
  }

  /** Keeps the user's open sockets counted until {@code expiresAtMillis} (those already gone stay gone). */
  public void refreshSockets(long userId, List<String> socketIds, long expiresAtMillis) {
    Map<String, Double> scores = new HashMap<>();
    socketIds.forEach(id -> scores.put(id, (double) expiresAtMillis));
    redis.zadd(sockets(userId), scores, ZAddParams.zAddParams().xx());
    redis.pexpireAt(sockets(userId), expiresAtMillis);
  }

  public void closeSocket(long userId, String socketId) {
    redis.zrem(sockets(userId), socketId);
  }

  private static String sockets(long userId) {
    return PREFIX + userId + "}:sockets";
  }
}
