package io.seqsync.ingress.push;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.seqsync.ingress.http.TimedCache;
import io.seqsync.redis.SocketRegistry;
import io.seqsync.store.PresenceQueries;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Presence on this instance (docs/design.md, "Typing and presence"): registers its push sockets in
 * the {@link SocketRegistry} (and beats for them), publishes a user's presence when it changes (at
 * most once per throttle, the state as it is then), and tells the sockets here that watch a user
 * (they asked for them, and share a conversation with them) of each change. Watched users are
 * re-read once per beat while online, so that a user whose sockets aged out (their instance was
 * killed) goes offline for their watchers too. Redis calls run on one thread of its own, in order;
 * while Redis fails, presence says nothing new. Thread-safe.
 */
final class PresenceTracker implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(PresenceTracker.class);
  static final String LINE = "P";
  private static final Duration PRIVACY_CACHE = Duration.ofSeconds(10);

  /** A user's presence as others see it. */
  enum Status { ONLINE, AWAY, OFFLINE, UNKNOWN }

  /** A presence frame (no type: an HTTP answer's item); lastSeen (ms) only for offline, when known. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record PresenceFrame(String type, String userId, String status,
      @JsonInclude(JsonInclude.Include.NON_NULL) Long lastSeen) {}

  /** A user's status and last seen time (0: unknown). */
  record Seen(Status status, long lastSeen) {
    static final Seen UNKNOWN = new Seen(Status.UNKNOWN, 0);

    PresenceFrame frame(long userId) {
      return item("presence", userId);
    }

    PresenceFrame item(String type, long userId) {
      return new PresenceFrame(type, Long.toString(userId), status.name().toLowerCase(),
          status == Status.OFFLINE && lastSeen > 0 ? lastSeen : null);
    }
  }

  private final SocketRegistry registry;
  private final PresenceQueries queries;
  private final Consumer<String> channel;
  private final long throttleMillis;
  private final Map<String, SocketRegistry.Socket> local = new ConcurrentHashMap<>();
  private final Map<Long, Set<PushConnection>> watchers = new ConcurrentHashMap<>();
  private final Map<String, Set<Long>> watching = new ConcurrentHashMap<>();
  private final Map<Long, Seen> lastTold = new ConcurrentHashMap<>();
  private final Map<Long, Long> lastPublished = new ConcurrentHashMap<>();
  private final Set<Long> pending = ConcurrentHashMap.newKeySet();
  private final TimedCache<Long, Boolean> hiding = new TimedCache<>(PRIVACY_CACHE, Clock.systemUTC());
  private final ScheduledExecutorService redisThread = Executors.newSingleThreadScheduledExecutor(runnable -> {
    Thread thread = new Thread(runnable, "presence");
    thread.setDaemon(true);
    return thread;
  });

  PresenceTracker(SocketRegistry registry, PresenceQueries queries, Consumer<String> channel, Duration throttle) {
    this.registry = registry;
    this.queries = queries;
    this.channel = channel;
    this.throttleMillis = throttle.toMillis();
    long beat = registry.beatInterval().toMillis();
    redisThread.scheduleWithFixedDelay(this::beat, beat, beat, TimeUnit.MILLISECONDS);
  }

  /** Completes once the socket is in the registry (or Redis failed): push finds its instance from then on. */
  CompletableFuture<Void> opened(PushConnection connection) {
    SocketRegistry.Socket socket =
        new SocketRegistry.Socket(connection.caller.userId(), connection.caller.deviceId(), connection.id, false);
    local.put(connection.id, socket);
    return onRedis(() -> changed(registry.open(socket, System.currentTimeMillis()), socket.userId()));
  }

  void closed(PushConnection connection) {
    SocketRegistry.Socket socket = local.remove(connection.id);
    Set<Long> watched = watching.remove(connection.id);
    if (watched != null) {
      watched.forEach(user -> unwatch(user, connection));
    }
    if (socket != null) {
      onRedis(() -> changed(registry.close(socket, System.currentTimeMillis()), socket.userId()));
    }
  }

  /** The socket's device is now hidden (in the background) or visible. */
  void visibility(PushConnection connection, boolean hidden) {
    SocketRegistry.Socket socket = local.computeIfPresent(connection.id, (id, old) -> old.withHidden(hidden));
    if (socket != null) {
      onRedis(() -> changed(registry.visibility(socket, System.currentTimeMillis()), socket.userId()));
    }
  }

  /**
   * The socket watches {@code users} (in place of those it watched), and each one's presence as
   * {@code viewer} may see it now: unknown for users who share no conversation with the viewer or
   * hide their presence.
   */
  Map<Long, Seen> watch(PushConnection connection, Collection<Long> users) {
    long viewer = connection.caller.userId();
    Set<Long> sharing = sharing(viewer, users);
    Map<Long, Seen> seen = read(viewer, users, sharing);
    Set<Long> before = watching.put(connection.id, sharing);
    if (before != null) {
      before.stream().filter(user -> !sharing.contains(user)).forEach(user -> unwatch(user, connection));
    }
    sharing.forEach(user -> {
      watchers.computeIfAbsent(user, u -> ConcurrentHashMap.newKeySet()).add(connection);
      lastTold.putIfAbsent(user, seen.get(user));
    });
    if (!local.containsKey(connection.id) && watching.remove(connection.id) != null) {
      sharing.forEach(user -> unwatch(user, connection)); // it closed meanwhile
    }
    return seen;
  }

  /**
   * The presence of {@code users} as {@code viewer} may see it: unknown for those who share no
   * conversation with the viewer or hide it (the viewer themself is always visible to themself).
   */
  Map<Long, Seen> read(long viewer, Collection<Long> users) {
    return read(viewer, users, sharing(viewer, users));
  }

  private Map<Long, Seen> read(long viewer, Collection<Long> users, Set<Long> sharing) {
    Set<Long> hidden = queries.hiding(users);
    List<Long> visible = users.stream().filter(user -> sharing.contains(user) && (user == viewer || !hidden.contains(user)))
        .toList();
    Map<Long, SocketRegistry.Presence> presence = visible.isEmpty() ? Map.of() : registry.presence(visible);
    Map<Long, Seen> seen = new LinkedHashMap<>();
    users.forEach(user -> seen.put(user, presence.containsKey(user) ? seen(presence.get(user)) : Seen.UNKNOWN));
    return seen;
  }

  private Set<Long> sharing(long viewer, Collection<Long> users) {
    Set<Long> sharing = new HashSet<>(queries.sharingWith(viewer, users));
    if (users.contains(viewer)) {
      sharing.add(viewer);
    }
    return sharing;
  }

  /** The user changed who may see their presence: their watchers are told at once. */
  void visibilityChanged(long userId) {
    hiding.forget(userId);
    onRedis(() -> publish(userId));
  }

  /** A presence line from any instance: the watchers here are told. */
  void heard(String[] fields) {
    long userId = Long.parseLong(fields[1]);
    Seen seen = new Seen(Status.valueOf(fields[2]), Long.parseLong(fields[3]));
    tell(userId, seen);
  }

  private void tell(long userId, Seen seen) {
    Set<PushConnection> held = watchers.get(userId);
    if (held == null) {
      return;
    }
    lastTold.put(userId, seen);
    String frame = PushFrames.json(seen.frame(userId));
    held.forEach(connection -> connection.offer(frame));
  }

  private void unwatch(long user, PushConnection connection) {
    watchers.computeIfPresent(user, (u, held) -> {
      held.remove(connection);
      if (held.isEmpty()) {
        lastTold.remove(u);
        return null;
      }
      return held;
    });
  }

  // A change others see goes out now, or when the user's throttle allows, as it is then.
  private void changed(SocketRegistry.Change change, long userId) {
    if (change.changed()) {
      schedulePublish(userId);
    }
  }

  private void schedulePublish(long userId) {
    if (!pending.add(userId)) {
      return;
    }
    long wait = lastPublished.getOrDefault(userId, 0L) + throttleMillis - System.currentTimeMillis();
    redisThread.schedule(() -> {
      pending.remove(userId);
      publish(userId);
    }, Math.max(0, wait), TimeUnit.MILLISECONDS);
  }

  private void publish(long userId) {
    try {
      Seen seen = hidden(userId) ? Seen.UNKNOWN : seen(registry.presence(List.of(userId)).get(userId));
      lastPublished.put(userId, System.currentTimeMillis());
      channel.accept(String.join("\t", LINE, Long.toString(userId), seen.status().name(), Long.toString(seen.lastSeen())));
    } catch (JedisException e) {
      log.debug("presence of user {} not published: {}", userId, e.getMessage());
    }
  }

  private boolean hidden(long userId) {
    return hiding.get(userId, () -> !queries.hiding(List.of(userId)).isEmpty());
  }

  private static Seen seen(SocketRegistry.Presence presence) {
    if (presence.online()) {
      return new Seen(presence.visible() ? Status.ONLINE : Status.AWAY, 0);
    }
    return new Seen(Status.OFFLINE, presence.lastSeenMillis());
  }

  // The beat for this instance's sockets, then the watched users thought online read again: those
  // whose sockets aged out elsewhere are told here (each instance reads its own watched users).
  private void beat() {
    try {
      long now = System.currentTimeMillis();
      lastPublished.values().removeIf(at -> at < now - throttleMillis);
      registry.refresh(new ArrayList<>(local.values()), now).forEach(this::schedulePublish);
      List<Long> online = lastTold.entrySet().stream()
          .filter(entry -> entry.getValue().status() == Status.ONLINE || entry.getValue().status() == Status.AWAY)
          .map(Map.Entry::getKey).toList();
      if (!online.isEmpty()) {
        registry.presence(online).forEach((user, presence) -> {
          if (!presence.online() && !hidden(user)) {
            tell(user, seen(presence));
          }
        });
      }
    } catch (JedisException e) {
      log.debug("presence beat failed: {}", e.getMessage());
    } catch (RuntimeException e) {
      log.warn("presence beat failed", e);
    }
  }

  private CompletableFuture<Void> onRedis(Runnable task) {
    return CompletableFuture.runAsync(() -> {
      try {
        task.run();
      } catch (JedisException e) {
        log.debug("presence not updated: {}", e.getMessage());
      } catch (RuntimeException e) {
        log.warn("presence not updated", e);
      }
    }, redisThread);
  }

  @Override
  public void close() {
    redisThread.shutdownNow();
  }
}
