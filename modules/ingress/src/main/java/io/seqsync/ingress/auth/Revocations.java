package io.seqsync.ingress.auth;

import io.seqsync.store.RevocationQueries;
import io.seqsync.store.RevocationQueries.Revocation;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Signed-out devices, as every instance sees them: PostgreSQL's {@code revocations} held in memory
 * (a lookup per request, no round trip) and polled every {@code pollInterval} for rows written
 * since, so a sign-out on one instance refuses the device's tokens on all of them within about that
 * interval. A token is refused when it was issued ({@code iat}, whole seconds) at or before its
 * device's or its user's revocation: a token issued in the same second as the sign-out is refused
 * too. Listeners hear of each revocation once it is known here (the push stream closes the
 * device's sockets). While PostgreSQL does not answer, what was known stays in force. Thread-safe.
 */
public final class Revocations implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Revocations.class);
  // Revisions are taken from a sequence before their transactions commit, so one may become visible
  // after a higher one was read: each poll reads this far back again (applying a row twice is harmless).
  static final int REREAD = 256;
  private static final int PAGE = 1000;

  /** A device's tokens (every device's, for {@link RevocationQueries#ALL_DEVICES}) issued up to {@code before} are refused. */
  public record Revoked(long userId, String deviceId, long before) {
    public boolean names(Caller caller) {
      return caller.userId() == userId && (deviceId.equals(RevocationQueries.ALL_DEVICES) || deviceId.equals(caller.deviceId()));
    }
  }

  private final RevocationQueries queries;
  private final Duration pollInterval;
  private final Map<Long, Map<String, Long>> byUser = new ConcurrentHashMap<>();
  private final List<Consumer<Revoked>> listeners = new CopyOnWriteArrayList<>();
  private final ScheduledExecutorService poller = Executors.newSingleThreadScheduledExecutor(runnable -> {
    Thread thread = new Thread(runnable, "revocations-poll");
    thread.setDaemon(true);
    return thread;
  });
  private volatile long seen;

  public Revocations(RevocationQueries queries, Duration pollInterval) {
    this.queries = queries;
    this.pollInterval = pollInterval;
  }

  /** Loads every revocation, then polls for new ones. */
  public Revocations start() {
    poll();
    poller.scheduleWithFixedDelay(this::pollQuietly, pollInterval.toMillis(), pollInterval.toMillis(), TimeUnit.MILLISECONDS);
    return this;
  }

  public void addListener(Consumer<Revoked> listener) {
    listeners.add(listener);
  }

  /** Whether {@code token} belongs to a device that signed out after it was issued. */
  public boolean revoked(VerifiedToken token) {
    Map<String, Long> devices = byUser.get(token.caller().userId());
    if (devices == null) {
      return false;
    }
    long before = Math.max(devices.getOrDefault(RevocationQueries.ALL_DEVICES, Long.MIN_VALUE),
        devices.getOrDefault(token.caller().deviceId(), Long.MIN_VALUE));
    return token.issuedAtMillis() <= before;
  }

  /** Signs out {@code deviceId} (or every device) of {@code userId}: stored, then in force here at once. */
  public void revoke(long userId, String deviceId, long before) {
    queries.revoke(userId, deviceId, before);
    apply(new Revoked(userId, deviceId, before));
  }

  private void pollQuietly() {
    try {
      poll();
    } catch (RuntimeException e) {
      log.warn("revocations not polled (the ones known stay in force): {}", e.toString());
    }
  }

  private void poll() {
    List<Revocation> page;
    long from = Math.max(0, seen - REREAD);
    do {
      page = queries.since(from, PAGE);
      for (Revocation row : page) {
        apply(new Revoked(row.userId(), row.deviceId(), row.revokedBefore()));
        from = row.revision();
        seen = Math.max(seen, row.revision());
      }
    } while (page.size() == PAGE);
  }

  private void apply(Revoked revoked) {
    Long[] previous = {null};
    byUser.computeIfAbsent(revoked.userId(), user -> new ConcurrentHashMap<>())
        .merge(revoked.deviceId(), revoked.before(), (old, now) -> {
          previous[0] = old;
          return Math.max(old, now);
        });
    if (previous[0] == null || previous[0] < revoked.before()) {
      listeners.forEach(listener -> listener.accept(revoked));
    }
  }

  @Override
  public void close() {
    poller.shutdownNow();
  }
}
