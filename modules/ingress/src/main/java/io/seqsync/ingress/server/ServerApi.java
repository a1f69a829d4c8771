package io.seqsync.ingress.server;

import io.seqsync.events.UserIds;
import io.seqsync.ingress.auth.Caller;
import io.seqsync.ingress.auth.Service;
import io.seqsync.ingress.auth.TokenVerifier;
import io.seqsync.ingress.http.ApiException;
import io.seqsync.ingress.http.Endpoint;
import io.seqsync.ingress.http.JavalinRoutes;
import io.seqsync.ingress.http.Route;
import io.seqsync.ingress.limits.Limit;
import io.seqsync.ingress.limits.Limiter;

/**
 * The server API (docs/api.md, "Server API"): what the adopting team's backend does with a service
 * token, under {@code /v1/server/}. It acts as a user ({@code /v1/server/users/{asUser}/...}: the
 * user's own endpoints, with the user's rights, from the device {@link #SERVER_DEVICE}) or as the
 * system ({@link UserIds#SYSTEM}, which may send to any conversation). Every route takes a token of
 * the service's bucket ({@code limits.server-service.*}) and honours {@code Idempotency-Key}
 * ({@link IdempotencyKeys}).
 */
public final class ServerApi {
  /** Where the server API's routes live: a user's token is refused there, as a service's is everywhere else. */
  public static final String PREFIX = "/v1/server/";
  /** The device the server API's actions as a user come from (what the user's other devices see as the sender's device). */
  public static final String SERVER_DEVICE = "server";
  private static final String AS_USER = "/v1/server/users/{asUser}";

  /** The user routes the server API reuses, each as its user route serves it. */
  public record UserEndpoints(Endpoint<Caller> send, Endpoint<Caller> createGroup, Endpoint<Caller> changeMembers,
      Endpoint<Caller> role, Endpoint<Caller> settings, Endpoint<Caller> conversations) {}

  private final ServiceAccess access;
  private final IdempotencyKeys idempotency;
  private final Limiter limiter;
  private final UserEndpoints users;
  private final ServerSignOut signOut;

  public ServerApi(TokenVerifier tokens, IdempotencyKeys idempotency, Limiter limiter, UserEndpoints users,
      ServerSignOut signOut) {
    this.access = new ServiceAccess(tokens);
    this.idempotency = idempotency;
    this.limiter = limiter;
    this.users = users;
    this.signOut = signOut;
  }

  /** Adds the server API's routes. */
  public void install(JavalinRoutes api) {
    api.post("/v1/server/conversations/{convId}/messages", route(asSystem(users.send())));
    api.post(AS_USER + "/conversations/{convId}/messages", route(asUser(users.send())));
    api.post(AS_USER + "/groups", route(asUser(users.createGroup())));
    api.post(AS_USER + "/conversations/{convId}/members", route(asUser(users.changeMembers())));
    api.put(AS_USER + "/conversations/{convId}/roles/{userId}", route(asUser(users.role())));
    api.put(AS_USER + "/conversations/{convId}/settings", route(asUser(users.settings())));
    api.get(AS_USER + "/conversations", route(asUser(users.conversations())));
    api.post(AS_USER + "/sign-out", route(asUser(Endpoint.now(signOut::signOut))));
  }

  /** Adds POST {@value UserEraseEndpoint#PATH}: a service's route outside {@link #PREFIX}. */
  public void installErasure(JavalinRoutes api, UserEraseEndpoint erasure) {
    api.post(UserEraseEndpoint.PATH, route(Endpoint.now(erasure::erase)));
  }

  // The service's bucket first (a refused request costs nothing more), then the key, then the endpoint.
  private Route<Service> route(Endpoint<Service> endpoint) {
    Endpoint<Service> once = idempotency.once(endpoint);
    return Route.of(access, (service, request) -> {
      limiter.check(Limit.SERVER, new Caller(UserIds.SYSTEM, service.name()));
      return once.answer(service, request);
    });
  }

  private static Endpoint<Service> asUser(Endpoint<Caller> endpoint) {
    return (service, request) -> endpoint.answer(new Caller(userId(request.pathParam("asUser")), SERVER_DEVICE), request);
  }

  private static Endpoint<Service> asSystem(Endpoint<Caller> endpoint) {
    return (service, request) -> endpoint.answer(new Caller(UserIds.SYSTEM, UserIds.SYSTEM_DEVICE), request);
  }

  private static long userId(String text) {
    long userId = UserIds.parse(text).orElse(0L);
    if (userId <= 0 || userId == UserIds.SYSTEM) {
      throw ApiException.badRequest("invalid_parameter", "asUser must be a user id: a positive 64-bit integer in decimal");
    }
    return userId;
  }
}
