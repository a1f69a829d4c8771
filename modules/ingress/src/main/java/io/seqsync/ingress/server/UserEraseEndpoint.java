package io.seqsync.ingress.server;

import io.seqsync.events.UserIds;
import io.seqsync.ingress.auth.Revocations;
import io.seqsync.ingress.auth.Service;
import io.seqsync.ingress.http.Answer;
import io.seqsync.ingress.http.ApiException;
import io.seqsync.ingress.http.ApiRequest;
import io.seqsync.store.RevocationQueries;
import java.time.Clock;

/**
 * POST /v1/users/{userId}/erase, with a service token (docs/api.md, "Server API"): erases the user
 * (docs/design.md, "Erasure"): every device signed out, their content keys deleted, their
 * projections purged. Answers 200 with what was erased; erasing again answers the same way.
 */
public final class UserEraseEndpoint {
  /** The route: a service's, outside the server API's prefix. */
  public static final String PATH = "/v1/users/{userId}/erase";

  /** Erases a user; answers what it did (rendered as JSON). */
  public interface Eraser {
    Object erase(long userId);
  }

  private final Revocations revocations;
  private final Clock clock;
  private volatile Eraser eraser;

  public UserEraseEndpoint(Revocations revocations, Clock clock) {
    this.revocations = revocations;
    this.clock = clock;
  }

  /** Where erasures go; until set, the route answers 503. */
  public void eraseWith(Eraser by) {
    this.eraser = by;
  }

  /** Whether {@code path} is this route's (a service token's, checked by the route itself). */
  public static boolean matches(String path) {
    return path.startsWith("/v1/users/") && path.endsWith("/erase");
  }

  Answer erase(Service service, ApiRequest request) {
    long userId = UserIds.parse(request.pathParam("userId")).orElse(0L);
    if (userId <= 0 || userId == UserIds.SYSTEM) {
      throw ApiException.badRequest("invalid_parameter", "userId must be a user id: a positive 64-bit integer in decimal");
    }
    Eraser by = eraser;
    if (by == null) {
      throw ApiException.unavailable("erasure_unavailable", "erasure is not available on this instance");
    }
    // Signed out first: nothing the user's devices send after this is accepted.
    revocations.revoke(userId, RevocationQueries.ALL_DEVICES, clock.millis());
    return Answer.ok(by.erase(userId));
  }
}
