package io.seqsync.store;

import java.util.List;
import org.jdbi.v3.core.Jdbi;

/**
 * Signed-out devices ({@code revocations}): a token of the device issued before
 * {@code revokedBefore} is refused. {@link #ALL_DEVICES} names every device of the user. A
 * revocation only moves forward: signing out again later refuses more, never less. Thread-safe.
 */
public final class RevocationQueries {
  public static final String ALL_DEVICES = "*";

  /** A revocation as stored; {@code revision} grows with every write, for {@link #since}. */
  public record Revocation(long userId, String deviceId, long revokedBefore, long revision) {}

  private final Jdbi jdbi;

  public RevocationQueries(Jdbi jdbi) {
    this.jdbi = jdbi;
  }

  /** Refuses the device's (or, with {@link #ALL_DEVICES}, every device's) tokens issued before {@code before}. */
  public void revoke(long userId, String deviceId, long before) {
    jdbi.useHandle(handle -> handle.createUpdate("insert into revocations (user_id, device_id, revoked_before)"
            + " values (:user, :device, :before) on conflict (user_id, device_id) do update"
            + " set revoked_before = greatest(revocations.revoked_before, excluded.revoked_before),"
            + " revision = nextval('revocation_revisions')")
        .bind("user", userId).bind("device", deviceId).bind("before", before).execute());
  }

  /** The revocations written after {@code revision}, oldest first, at most {@code limit}. */
  public List<Revocation> since(long revision, int limit) {
    return jdbi.withHandle(handle -> handle.createQuery("select user_id, device_id, revoked_before, revision"
            + " from revocations where revision > :revision order by revision limit :limit")
        .bind("revision", revision).bind("limit", limit)
        .map((rs, ctx) -> new Revocation(rs.getLong(1), rs.getString(2), rs.getLong(3), rs.getLong(4))).list());
  }
}
