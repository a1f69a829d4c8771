package io.seqsync.ingress.server;

import com.fasterxml.jackson.databind.JsonNode;
import io.seqsync.events.DeviceIds;
import io.seqsync.ingress.auth.Caller;
import io.seqsync.ingress.auth.Revocations;
import io.seqsync.ingress.http.Answer;
import io.seqsync.ingress.http.ApiException;
import io.seqsync.ingress.http.ApiRequest;
import io.seqsync.ingress.http.Json;
import io.seqsync.store.RevocationQueries;
import java.time.Clock;

/**
 * POST /v1/server/users/{asUser}/sign-out {deviceId?}: signs out one device of the user, or all of
 * them without {@code deviceId}, as the user's own sign-out does ({@link Revocations}: every token
 * issued until now refused on every instance, the push sockets closed).
 */
public final class ServerSignOut {
  /** What was signed out, and the time up to which its tokens are refused (epoch ms). */
  record SignedOut(String userId, String signedOut, long revokedBefore) {}

  private final Revocations revocations;
  private final Clock clock;

  public ServerSignOut(Revocations revocations, Clock clock) {
    this.revocations = revocations;
    this.clock = clock;
  }

  Answer signOut(Caller user, ApiRequest request) {
    String deviceId = deviceId(request.body());
    long now = clock.millis();
    revocations.revoke(user.userId(), deviceId, now);
    return Answer.ok(new SignedOut(Long.toString(user.userId()), deviceId, now));
  }

  private static String deviceId(byte[] body) {
    JsonNode device = body.length == 0 ? null : Json.object(body).get("deviceId");
    if (device == null || device.isNull()) {
      return RevocationQueries.ALL_DEVICES;
    }
    if (!device.isTextual() || !DeviceIds.isValid(device.textValue())) {
      throw ApiException.badRequest("invalid_field", "deviceId must be 1-64 characters of A-Za-z0-9._-");
    }
    return device.textValue();
  }
}
