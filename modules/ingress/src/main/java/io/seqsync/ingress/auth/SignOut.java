package io.seqsync.ingress.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.seqsync.ingress.http.Answer;
import io.seqsync.ingress.http.ApiException;
import io.seqsync.ingress.http.ApiRequest;
import io.seqsync.ingress.http.Json;
import io.seqsync.store.RevocationQueries;
import java.time.Clock;

/**
 * POST /v1/sign-out {allDevices?}: the caller's device (or every device of the user) signs out.
 * Every token of it issued until now is refused from then on, on every instance, and its push
 * sockets are closed ({@link Revocations}). Signing in again takes a token issued after this.
 */
public final class SignOut {
  /** What was signed out, and the time up to which its tokens are refused (epoch ms). */
  record SignedOut(String signedOut, long revokedBefore) {}

  private final Revocations revocations;
  private final Clock clock;

  public SignOut(Revocations revocations, Clock clock) {
    this.revocations = revocations;
    this.clock = clock;
  }

  public Answer signOut(Caller caller, ApiRequest request) {
    boolean allDevices = allDevices(request.body());
    long now = clock.millis();
    revocations.revoke(caller.userId(), allDevices ? RevocationQueries.ALL_DEVICES : caller.deviceId(), now);
    return Answer.ok(new SignedOut(allDevices ? "all" : "device", now));
  }

  private static boolean allDevices(byte[] body) {
    if (body.length == 0) {
      return false;
    }
    ObjectNode object = Json.object(body);
    JsonNode all = object.get("allDevices");
    if (all == null || all.isNull()) {
      return false;
    }
    if (!all.isBoolean()) {
      throw ApiException.badRequest("invalid_field", "allDevices must be true or false");
    }
    return all.booleanValue();
  }
}
