package io.seqsync.ingress.web;

import io.seqsync.events.DeviceIds;
import io.seqsync.ingress.auth.Tokens;
import io.seqsync.ingress.http.Answer;
import io.seqsync.ingress.http.Anyone;
import io.seqsync.ingress.http.ApiException;
import io.seqsync.ingress.http.ApiRequest;
import io.seqsync.ingress.http.Json;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * The development sign-in of the embedded default: a user id and a device id in, a token out, so a
 * person can try the web client in two windows without minting tokens. Anyone may sign in as
 * anyone, so the app serves it only when every server is embedded (the development secret's own
 * rule); anywhere else the route does not exist (404) and the web client asks for a token.
 */
public final class DevSignIn {
  public static final String PATH = "/dev/sign-in";

  private final Tokens tokens;
  private final Duration ttl;

  public DevSignIn(Tokens tokens, Duration ttl) {
    this.tokens = tokens;
    this.ttl = ttl;
  }

  /** GET /dev/sign-in: that it exists here (the web client asks before it shows the form). */
  public Answer available(Anyone caller, ApiRequest request) {
    return Answer.ok(Map.of("available", true, "tokenTtlSeconds", ttl.toSeconds()));
  }

  /** POST /dev/sign-in {userId, deviceId}: a token for that device. */
  public Answer signIn(Anyone caller, ApiRequest request) {
    var body = Json.object(request.body());
    long userId = Json.id(body.get("userId"), "userId", "a user id");
    String deviceId = Json.string(body, "deviceId");
    if (!DeviceIds.isValid(deviceId)) {
      throw ApiException.badRequest("invalid_field", "deviceId must be 1-64 characters of A-Za-z0-9._-");
    }
    Instant expiresAt = Instant.now().plus(ttl);
    return Answer.ok(Map.of("token", tokens.mint(userId, deviceId, expiresAt), "userId", Long.toString(userId),
        "deviceId", deviceId, "expiresAt", expiresAt.toEpochMilli()));
  }
}
