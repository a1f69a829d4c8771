package io.seqsync.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;

/**
 * Which devices of a user hold a live push socket, on any app instance, and whether each says it
 * is hidden (its client sent {@code {"type":"visibility","hidden":true}}: a browser tab in the
 * background, an app in the background). Presence is derived from it (online: a live device;
 * otherwise the last time one was seen), and push to devices ("push" notifications) asks it which
 * devices a frame on the socket already reaches, and whether someone is looking at them.
 *
 * <p>Layout: one hash per user, {@code ss:live:{<userId>}} (the user's hash tag: one slot of a
 * Redis Cluster), one field per device whose value is its socket's last beat (ms), its hidden flag
 * and its socket id, and the field {@code @seen}, when the user was last seen with a socket. Every
 * change is one script run ({@code live_sockets.lua}), so concurrent opens and closes of one user's
 * sockets on several instances never lose a transition.
 *
 * <p>Liveness: the instance holding a socket beats for it every {@link #beatInterval()} (a third
 * of the ttl, see {@link #refresh}); a device whose last beat is older than the ttl is not live,
 * so the sockets of an instance that was killed age out within one ttl, and their last beat
 * becomes the user's last seen time. A newer socket of a device replaces the older one's field;
 * the older socket's close then changes nothing.
 *
 * <p>Errors are Jedis's ({@link redis.clients.jedis.exceptions.JedisException}): the caller
 * decides what an unknown presence means. Thread-safe.
 */
public final class SocketRegistry {
  private static final String PREFIX = IndexKeys.PREFIX + "live:{";
  private static final String SEEN = "@seen";
  private static final RedisScript SCRIPT = RedisScript.load("live_sockets.lua");
  /** How long a user's hash (their last seen time) outlives their last socket. */
  static final Duration RETENTION = Duration.ofDays(30);

  /**
   * A socket: its user, device, id (unique across instances, {@code <instance>/<local id>}: push
   * finds the instance by it) and whether its device says it is hidden.
   */
  public record Socket(long userId, String deviceId, String socketId, boolean hidden) {
    public Socket withHidden(boolean nowHidden) {
      return new Socket(userId, deviceId, socketId, nowHidden);
    }
  }

  /**
   * A user's presence: {@code online} with at least one live device, {@code visible} when one of
   * them is not hidden; {@code lastSeenMillis} when offline, the last time a socket of theirs was
   * live (0: never seen, or longer ago than the retention of 30 days).
   */
  public record Presence(boolean online, boolean visible, long lastSeenMillis) {
    public static final Presence UNKNOWN = new Presence(false, false, 0);
  }

  /**
   * What a change did to the user's presence: whether they were online (a live device) and visible
   * (a live device not hidden) before and after it.
   */
  public record Change(boolean wasOnline, boolean isOnline, boolean wasVisible, boolean isVisible) {
    /** Whether others would see a difference (online, offline, or visible, hidden). */
    public boolean changed() {
      return wasOnline != isOnline || wasVisible != isVisible;
    }
  }

  private final UnifiedJedis redis;
  private final long ttlMillis;

  /** {@code ttl}: how long a socket stays live after its last beat (at least 3 ms). */
  public SocketRegistry(UnifiedJedis redis, Duration ttl) {
    if (ttl.toMillis() < 3) {
      throw new IllegalArgumentException("a socket's ttl must be at least 3 ms: " + ttl);
    }
    this.redis = redis;
    this.ttlMillis = ttl.toMillis();
  }

  /** How often an instance beats for its sockets: a third of the ttl, so one lost beat costs nothing. */
  public Duration beatInterval() {
    return Duration.ofMillis(ttlMillis / 3);
  }

  /** The socket is live (it replaces its device's older socket, wherever that is). */
  public Change open(Socket socket, long nowMillis) {
    return change("open", socket, nowMillis);
  }

  /** The socket's device is now hidden, or visible again (nothing if another socket took the device). */
  public Change visibility(Socket socket, long nowMillis) {
    return change("beat", socket, nowMillis);
  }

  /** The socket closed: its device is no longer live, unless a newer socket took it over. */
  public Change close(Socket socket, long nowMillis) {
    return change("close", socket, nowMillis);
  }

  /**
   * Beats for these sockets, in one pipeline: an instance calls it with all its sockets every
   * {@link #beatInterval()}. A socket whose device another socket took is left alone; one whose
   * field is gone (Redis lost its data) is written again. Returns the users whose presence changed
   * meanwhile (another device of theirs aged out, or they were lost and are back).
   */
  public List<Long> refresh(Collection<Socket> sockets, long nowMillis) {
    List<RedisScript.Queued> queued = new ArrayList<>(sockets.size());
    List<Socket> order = new ArrayList<>(sockets);
    try (AbstractPipeline pipeline = redis.pipelined()) {
      for (Socket socket : order) {
        queued.add(SCRIPT.queue(pipeline, List.of(key(socket.userId())), args("beat", socket, nowMillis)));
      }
      pipeline.sync();
      queued.forEach(script -> script.runIfMissing(pipeline));
    }
    List<Long> changed = new ArrayList<>();
    for (int i = 0; i < order.size(); i++) {
      try {
        if (change(queued.get(i).reply().get()).changed()) {
          changed.add(order.get(i).userId());
        }
      } catch (RuntimeException noScript) {
        // rerun with its text above; its beat counted, its change not reported
      }
    }
    return changed;
  }

  /**
   * The user's devices with a live socket (on any instance), each mapped to whether it says it is
   * hidden: an empty map when none is live. A device killed without a close stays in it for up to
   * the ttl after its last beat.
   */
  public Map<String, Boolean> liveDevices(long userId) {
    return liveDevices(List.of(userId)).get(userId);
  }

  /** {@link #liveDevices(long)} of several users, in one pipeline: every user is a key of the answer. */
  public Map<Long, Map<String, Boolean>> liveDevices(Collection<Long> userIds) {
    Map<Long, Map<String, String>> hashes = read(userIds);
    long now = System.currentTimeMillis();
    Map<Long, Map<String, Boolean>> live = new LinkedHashMap<>();
    hashes.forEach((user, fields) -> {
      Map<String, Boolean> devices = new HashMap<>();
      fields.forEach((field, value) -> {
        Beat beat = Beat.parse(field, value);
        if (beat != null && beat.millis() + ttlMillis > now) {
          devices.put(field, beat.hidden());
        }
      });
      live.put(user, devices);
    });
    return live;
  }

  /**
   * The app instances holding a live socket of any of {@code userIds}, each with those users, in
   * one pipeline: where push routes a batch's notices.
   */
  public Map<String, Set<Long>> instances(Collection<Long> userIds) {
    Map<Long, Map<String, String>> hashes = read(userIds);
    long now = System.currentTimeMillis();
    Map<String, Set<Long>> instances = new HashMap<>();
    hashes.forEach((user, fields) -> fields.forEach((field, value) -> {
      Beat beat = Beat.parse(field, value);
      if (beat != null && beat.millis() + ttlMillis > now) {
        instances.computeIfAbsent(instanceOf(value.substring(value.lastIndexOf('|') + 1)), id -> new HashSet<>())
            .add(user);
      }
    }));
    return instances;
  }

  /** The socket id of a socket of {@code instance}. */
  public static String socketId(String instance, String localId) {
    return instance + "/" + localId;
  }

  static String instanceOf(String socketId) {
    int slash = socketId.indexOf('/');
    return slash < 0 ? "" : socketId.substring(0, slash);
  }

  /** The presence of each user, in one pipeline: every user is a key of the answer. */
  public Map<Long, Presence> presence(Collection<Long> userIds) {
    Map<Long, Map<String, String>> hashes = read(userIds);
    long now = System.currentTimeMillis();
    Map<Long, Presence> presence = new LinkedHashMap<>();
    hashes.forEach((user, fields) -> {
      boolean online = false;
      boolean visible = false;
      long seen = Long.parseLong(fields.getOrDefault(SEEN, "0"));
      for (Map.Entry<String, String> field : fields.entrySet()) {
        Beat beat = Beat.parse(field.getKey(), field.getValue());
        if (beat == null) {
          continue;
        }
        if (beat.millis() + ttlMillis > now) {
          online = true;
          visible |= !beat.hidden();
        } else {
          seen = Math.max(seen, beat.millis());
        }
      }
      presence.put(user, online ? new Presence(true, visible, 0) : new Presence(false, false, seen));
    });
    return presence;
  }

  private Map<Long, Map<String, String>> read(Collection<Long> userIds) {
    Map<Long, Response<Map<String, String>>> replies = new LinkedHashMap<>();
    try (AbstractPipeline pipeline = redis.pipelined()) {
      userIds.forEach(user -> replies.put(user, pipeline.hgetAll(key(user))));
      pipeline.sync();
    }
    Map<Long, Map<String, String>> hashes = new LinkedHashMap<>();
    replies.forEach((user, reply) -> hashes.put(user, reply.get()));
    return hashes;
  }

  private Change change(String op, Socket socket, long nowMillis) {
    return change(SCRIPT.run(redis, List.of(key(socket.userId())), args(op, socket, nowMillis)));
  }

  private static Change change(Object reply) {
    List<?> counts = (List<?>) reply;
    return new Change(count(counts, 0) > 0, count(counts, 1) > 0, count(counts, 2) > 0, count(counts, 3) > 0);
  }

  private static long count(List<?> counts, int index) {
    return ((Number) counts.get(index)).longValue();
  }

  private List<String> args(String op, Socket socket, long nowMillis) {
    return List.of(op, Long.toString(nowMillis), Long.toString(ttlMillis), socket.deviceId(), socket.socketId(),
        socket.hidden() ? "1" : "0", Long.toString(RETENTION.toMillis()));
  }

  static String key(long userId) {
    return PREFIX + userId + "}";
  }

  /** A device field's value: its last beat and hidden flag (null for the {@code @seen} field or a foreign value). */
  private record Beat(long millis, boolean hidden) {
    static Beat parse(String field, String value) {
      if (field.equals(SEEN)) {
        return null;
      }
      int bar = value.indexOf('|');
      if (bar < 1 || bar + 1 >= value.length()) {
        return null;
      }
      return new Beat(Long.parseLong(value, 0, bar, 10), value.charAt(bar + 1) == '1');
    }
  }
}
