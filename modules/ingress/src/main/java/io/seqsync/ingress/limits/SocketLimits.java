package io.seqsync.ingress.limits;

import io.seqsync.ingress.auth.Caller;
import io.seqsync.redis.RedisLimits;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.exceptions.JedisException;

/**
 * The push sockets a user may hold (docs/api.md, "Limits"), checked when a socket opens, before
 * its handshake: a new socket of a device replaces that device's older one on this instance (a
 * device reconnecting, whose old connection may not have noticed it is dead), and past
 * {@code limits.sockets-per-user} the new socket is refused, never an older one closed: what a
 * user runs keeps working, and a client opening sockets in a loop gets nothing for it. Across
 * instances the user's sockets are a sorted set in Redis, each id scored by when it expires,
 * refreshed every {@link #REFRESH_SECONDS} while open (an instance that dies leaves its ids to
 * expire); while Redis does not answer, this instance's count alone decides. Thread-safe.
 */
public final class SocketLimits implements AutoCloseable {
  /** The limit a refused socket is counted as. */
  static final String SOCKETS_USER = "sockets_user";
  static final long REFRESH_SECONDS = 30;
  // A socket frees when the user closes one: no time to tell, so a retry after a few seconds.
  private static final long REFUSED_RETRY_MICROS = TimeUnit.SECONDS.toMicros(5);
  static final long EXPIRY_MILLIS = TimeUnit.SECONDS.toMillis(3 * REFRESH_SECONDS);

  /** An open socket: its id (unique across instances), who holds it, and how to close it as replaced. */
  public record Socket(String id, Caller caller, Runnable replace) {}

  private final Limiter limiter;
  private final int perUser;
  private final Map<Long, List<Socket>> byUser = new ConcurrentHashMap<>();
  private final ScheduledExecutorService refresher = Executors.newSingleThreadScheduledExecutor(runnable -> {
    Thread thread = new Thread(runnable, "socket-limits");
    thread.setDaemon(true);
    return thread;
  });

  public SocketLimits(Limiter limiter, int perUser) {
    this.limiter = limiter;
    this.perUser = perUser;
    if (limiter.redis().isPresent()) {
      refresher.scheduleWithFixedDelay(this::refresh, REFRESH_SECONDS, REFRESH_SECONDS, TimeUnit.SECONDS);
    }
  }

  /**
   * Admits {@code socket} (true), closing its device's older socket here, or refuses it (false,
   * counted as {@code sockets_user}): the user holds {@code limits.sockets-per-user} already.
   */
  public boolean open(Socket socket) {
    long userId = socket.caller().userId();
    List<Socket> replaced = new ArrayList<>();
    boolean[] admitted = {false};
    byUser.compute(userId, (user, held) -> {
      List<Socket> kept = new ArrayList<>();
      for (Socket old : held == null ? List.<Socket>of() : held) {
        (old.caller().deviceId().equals(socket.caller().deviceId()) ? replaced : kept).add(old);
      }
      if (kept.size() >= perUser) {
        return held;
      }
      admitted[0] = true;
      kept.add(socket);
      return kept;
    });
    if (admitted[0] && !sharedAdmits(socket, replaced)) {
      close(socket);
      admitted[0] = false;
    }
    if (!admitted[0]) {
      limiter.counted(SOCKETS_USER);
      return false;
    }
    replaced.forEach(old -> old.replace().run());
    return true;
  }

  /**
   * Before a socket's upgrade, from this instance's count alone (no Redis): the 429 when the user
   * holds the cap here already, not counting a socket of the same device (which it would replace).
   */
  public void requireRoom(Caller caller) {
    List<Socket> held = byUser.getOrDefault(caller.userId(), List.of());
    long others = held.stream().filter(socket -> !socket.caller().deviceId().equals(caller.deviceId())).count();
    if (others >= perUser) {
      throw limiter.refusal(SOCKETS_USER, REFUSED_RETRY_MICROS,
          "this user holds as many push sockets as allowed; close one, or retry after the Retry-After seconds");
    }
  }

  /** The socket closed (or was refused): it no longer counts. */
  public void close(Socket socket) {
    byUser.computeIfPresent(socket.caller().userId(), (user, held) -> {
      List<Socket> kept = new ArrayList<>(held);
      kept.remove(socket);
      return kept.isEmpty() ? null : kept;
    });
    limiter.redis().filter(redis -> limiter.redisInUse()).ifPresent(redis -> {
      try {
        redis.closeSocket(socket.caller().userId(), socket.id());
      } catch (JedisException failure) {
        limiter.redisFailed(failure); // the id expires
      }
    });
  }

  /** This instance's open sockets. */
  public int count() {
    return byUser.values().stream().mapToInt(List::size).sum();
  }

  // Redis's count, across instances: refused when the user holds the cap there; admitted when Redis
  // does not answer (this instance's count has admitted it).
  private boolean sharedAdmits(Socket socket, List<Socket> replaced) {
    if (!limiter.redisInUse()) {
      return true;
    }
    long now = System.currentTimeMillis();
    try {
      return limiter.redis().orElseThrow().openSocket(socket.caller().userId(), socket.id(),
          replaced.stream().map(Socket::id).toList(), perUser, now, now + EXPIRY_MILLIS);
    } catch (JedisException failure) {
      limiter.redisFailed(failure);
      return true;
    }
  }

  private void refresh() {
    if (!limiter.redisInUse()) {
      return;
    }
    RedisLimits redis = limiter.redis().orElseThrow();
    long expiry = System.currentTimeMillis() + EXPIRY_MILLIS;
    try {
      byUser.forEach((user, held) -> redis.refreshSockets(user, held.stream().map(Socket::id).toList(), expiry));
    } catch (JedisException failure) {
      limiter.redisFailed(failure);
    }
  }

  @Override
  public void close() {
    refresher.shutdownNow();
  }
}
