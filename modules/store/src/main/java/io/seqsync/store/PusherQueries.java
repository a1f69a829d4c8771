package io.seqsync.store;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/**
 * Devices' pushers (table {@code pushers}, migration V12): where a device's push notifications go.
 * Not a projection: written by the ingress, kept by a replay. Every method is one statement.
 * Thread-safe: holds only the Jdbi.
 */
public final class PusherQueries {
  /** A pusher; {@code pushkey}/{@code appId} for kind http, {@code p256dh}/{@code auth} for kind webpush. Immutable. */
  public record Pusher(long pusherId, long userId, String deviceId, String kind, String url, String pushkey,
      String appId, String p256dh, String auth, long createdAt) {}

  private static final String COLUMNS = "pusher_id, user_id, device_id, kind, url, pushkey, app_id, p256dh, auth, created_at";

  private final Jdbi jdbi;

  public PusherQueries(Jdbi jdbi) {
    this.jdbi = jdbi;
  }

  /** Adds the pusher, or replaces the device's pusher at the same url; returns it with its id. */
  public Pusher put(Pusher pusher) {
    return jdbi.withHandle(handle -> handle.createQuery("insert into pushers (user_id, device_id, kind, url, pushkey,"
            + " app_id, p256dh, auth, created_at) values (:user, :device, :kind, :url, :pushkey, :app, :p256dh, :auth,"
            + " :now) on conflict (user_id, device_id, url) do update set kind = excluded.kind, pushkey = excluded.pushkey,"
            + " app_id = excluded.app_id, p256dh = excluded.p256dh, auth = excluded.auth returning " + COLUMNS)
        .bind("user", pusher.userId()).bind("device", pusher.deviceId()).bind("kind", pusher.kind())
        .bind("url", pusher.url()).bind("pushkey", pusher.pushkey()).bind("app", pusher.appId())
        .bind("p256dh", pusher.p256dh()).bind("auth", pusher.auth()).bind("now", pusher.createdAt())
        .map((rs, ctx) -> read(rs)).one());
  }

  /** The device's pushers, oldest first. */
  public List<Pusher> ofDevice(long userId, String deviceId) {
    return jdbi.withHandle(handle -> handle.createQuery("select " + COLUMNS
            + " from pushers where user_id = :user and device_id = :device order by pusher_id")
        .bind("user", userId).bind("device", deviceId).map((rs, ctx) -> read(rs)).list());
  }

  /** How many pushers the user has, all devices together (a limit per user). */
  public int countOfUser(long userId) {
    return jdbi.withHandle(handle -> handle.createQuery("select count(*) from pushers where user_id = :user")
        .bind("user", userId).mapTo(Integer.class).one());
  }

  /** One pusher by id. */
  public Optional<Pusher> byId(long pusherId) {
    return jdbi.withHandle(handle -> handle.createQuery("select " + COLUMNS + " from pushers where pusher_id = :id")
        .bind("id", pusherId).map((rs, ctx) -> read(rs)).findOne());
  }

  /** The pushers of those ids that exist. */
  public Map<Long, Pusher> byIds(Collection<Long> pusherIds) {
    Map<Long, Pusher> found = new HashMap<>();
    if (!pusherIds.isEmpty()) {
      jdbi.useHandle(handle -> handle.createQuery("select " + COLUMNS + " from pushers where pusher_id = any(:ids)")
          .bindArray("ids", Long.class, pusherIds).map((rs, ctx) -> read(rs))
          .forEach(pusher -> found.put(pusher.pusherId(), pusher)));
    }
    return found;
  }

  /** Removes the device's pusher; false when it has none of that id. */
  public boolean delete(long userId, String deviceId, long pusherId) {
    return jdbi.withHandle(handle -> handle.createUpdate("delete from pushers where pusher_id = :id and user_id = :user"
        + " and device_id = :device").bind("id", pusherId).bind("user", userId).bind("device", deviceId).execute()) > 0;
  }

  static Pusher read(java.sql.ResultSet rs) throws java.sql.SQLException {
    return new Pusher(rs.getLong("pusher_id"), rs.getLong("user_id"), rs.getString("device_id"), rs.getString("kind"),
        rs.getString("url"), rs.getString("pushkey"), rs.getString("app_id"), rs.getString("p256dh"),
        rs.getString("auth"), rs.getLong("created_at"));
  }
}
