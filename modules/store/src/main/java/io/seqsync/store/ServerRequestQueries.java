package io.seqsync.store;

import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/**
 * The server API's idempotency keys ({@code server_requests}): a request with a key first claims
 * it, and its answer is kept for {@link #WINDOW_HOURS} hours; a retry with the same key finds that
 * answer, or the claim of a request still running. A key older than the window is claimed anew.
 * Thread-safe.
 */
public final class ServerRequestQueries {
  /** How long an answer is replayed to retries. */
  public static final int WINDOW_HOURS = 24;

  /** What a key holds: the fingerprint of the request that claimed it, and its answer once it has one. */
  public record Claim(String fingerprint, Integer status, byte[] body) {
    public boolean answered() {
      return status != null;
    }
  }

  private final Jdbi jdbi;

  public ServerRequestQueries(Jdbi jdbi) {
    this.jdbi = jdbi;
  }

  /**
   * Claims {@code key} of {@code service} for a request of {@code fingerprint}: empty when this
   * request now holds it (new, or older than the window), else what the key holds.
   */
  public Optional<Claim> claim(String service, String key, String fingerprint) {
    return jdbi.inTransaction(handle -> {
      boolean claimed = handle.createQuery("insert into server_requests (service, request_key, fingerprint)"
              + " values (:service, :key, :fingerprint) on conflict (service, request_key) do update"
              + " set fingerprint = excluded.fingerprint, status = null, body = null, created_at = now()"
              + " where server_requests.created_at < now() - make_interval(hours => " + WINDOW_HOURS + ")"
              + " returning 1")
          .bind("service", service).bind("key", key).bind("fingerprint", fingerprint)
          .mapTo(Integer.class).findOne().isPresent();
      if (claimed) {
        return Optional.<Claim>empty();
      }
      return handle.createQuery("select fingerprint, status, body from server_requests"
              + " where service = :service and request_key = :key")
          .bind("service", service).bind("key", key)
          .map((rs, ctx) -> new Claim(rs.getString(1), (Integer) rs.getObject(2), rs.getBytes(3)))
          .findOne();
    });
  }

  /** Keeps the answer of the request that holds {@code key}. */
  public void answer(String service, String key, int status, byte[] body) {
    jdbi.useHandle(handle -> handle.createUpdate("update server_requests set status = :status, body = :body"
            + " where service = :service and request_key = :key")
        .bind("service", service).bind("key", key).bind("status", status).bind("body", body).execute());
  }

  /** Gives {@code key} up (its request failed in a way a retry may not): the next request with it runs. */
  public void release(String service, String key) {
    jdbi.useHandle(handle -> handle.createUpdate("delete from server_requests"
            + " where service = :service and request_key = :key and status is null")
        .bind("service", service).bind("key", key).execute());
  }

  /** Deletes the keys older than the window; returns how many. */
  public int expire() {
    return jdbi.withHandle(handle -> handle.createUpdate("delete from server_requests"
        + " where created_at < now() - make_interval(hours => " + WINDOW_HOURS + ")").execute());
  }
}
