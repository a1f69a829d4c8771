package io.seqsync.ingress.notify;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.seqsync.events.Commands;
import io.seqsync.events.ConvId;
import io.seqsync.ingress.api.AccessControl;
import io.seqsync.ingress.auth.Caller;
import io.seqsync.ingress.commands.CommandRoundTrip;
import io.seqsync.ingress.http.Answer;
import io.seqsync.ingress.http.ApiException;
import io.seqsync.ingress.http.ApiRequest;
import io.seqsync.ingress.http.Json;
import io.seqsync.store.PusherQueries;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The push notification routes: a device's pushers (each device manages its own), the VAPID
 * public key browsers subscribe with, and a user's list settings of a conversation (mute, pin),
 * which are commands in the conversation's order like every other setting.
 */
public final class PushEndpoints {
  /** A pusher as the API shows it (no keys). */
  public record PusherView(String pusherId, String deviceId, String kind, String url, String appId, long createdAt) {
    static PusherView of(PusherQueries.Pusher pusher) {
      return new PusherView(Long.toString(pusher.pusherId()), pusher.deviceId(), pusher.kind(), pusher.url(),
          pusher.appId(), pusher.createdAt());
    }
  }

  public record Pushers(List<PusherView> pushers) {}

  public record ListSettingsChanged(String convId, Boolean muted, Boolean pinned, String status) {}

  private final PushStores stores;
  private final AccessControl access;
  private final CommandRoundTrip roundTrip;

  public PushEndpoints(PushStores stores, AccessControl access, CommandRoundTrip roundTrip) {
    this.stores = stores;
    this.access = access;
    this.roundTrip = roundTrip;
  }

  /** POST /v1/devices/{device}/pushers: adds a pusher (or replaces the device's one at the same URL). */
  public Answer add(Caller caller, ApiRequest http) {
    ownDevice(caller, http);
    PusherRequest request = PusherRequest.parse(http.body());
    boolean known = stores.pushers().ofDevice(caller.userId(), caller.deviceId()).stream()
        .anyMatch(pusher -> pusher.url().equals(request.url()));
    if (!known && stores.pushers().countOfUser(caller.userId()) >= stores.pushersPerUser()) {
      throw ApiException.conflict("too_many_pushers", "a user holds at most " + stores.pushersPerUser()
          + " pushers: delete one first");
    }
    if (request.kind().equals(PusherRequest.WEBPUSH) && stores.vapidPublicKey().isEmpty()) {
      throw ApiException.conflict("webpush_off", "this server does not send Web Push");
    }
    PusherQueries.Pusher stored = stores.pushers().put(new PusherQueries.Pusher(0, caller.userId(), caller.deviceId(),
        request.kind(), request.url(), request.pushkey(), request.appId(), request.p256dh(), request.auth(),
        System.currentTimeMillis()));
    return Answer.json(201, PusherView.of(stored));
  }

  /** GET /v1/devices/{device}/pushers. */
  public Answer list(Caller caller, ApiRequest http) {
    ownDevice(caller, http);
    return Answer.ok(new Pushers(stores.pushers().ofDevice(caller.userId(), caller.deviceId()).stream()
        .map(PusherView::of).toList()));
  }

  /** DELETE /v1/devices/{device}/pushers/{pusherId}. */
  public Answer delete(Caller caller, ApiRequest http) {
    ownDevice(caller, http);
    long pusherId;
    try {
      pusherId = Long.parseLong(http.pathParam("pusherId"));
    } catch (NumberFormatException e) {
      throw ApiException.badRequest("invalid_parameter", "pusherId must be a pusher's id");
    }
    if (!stores.pushers().delete(caller.userId(), caller.deviceId(), pusherId)) {
      throw ApiException.notFound("no_such_pusher", "this device has no pusher " + pusherId);
    }
    return Answer.json(200, Map.of("deleted", Long.toString(pusherId)));
  }

  /** GET /v1/push/vapid: the key a browser's pushManager.subscribe takes as applicationServerKey. */
  public Answer vapid(Caller caller, ApiRequest http) {
    return Answer.ok(Map.of("publicKey", stores.vapidPublicKey().orElseThrow(() ->
        ApiException.notFound("webpush_off", "this server does not send Web Push"))));
  }

  /** PUT /v1/conversations/{convId}/list-settings {muted?, pinned?}. */
  public CompletableFuture<Answer> listSettings(Caller caller, ApiRequest http) {
    ConvId convId = AccessControl.convId(http.pathParam("convId"));
    ObjectNode body = Json.object(http.body());
    Boolean muted = flag(body, "muted");
    Boolean pinned = flag(body, "pinned");
    if (muted == null && pinned == null) {
      throw ApiException.badRequest("missing_field", "muted or pinned is required");
    }
    access.requireMember(caller, convId);
    return roundTrip.submit(new Commands(caller.userId(), caller.deviceId()).listSettings(convId.value(), muted, pinned))
        .thenApply(result -> result instanceof CommandRoundTrip.Result.Applied
            ? Answer.ok(new ListSettingsChanged(convId.value(), muted, pinned, "applied"))
            : Answer.json(202, new ListSettingsChanged(convId.value(), muted, pinned, "accepted")));
  }

  private static Boolean flag(ObjectNode body, String field) {
    JsonNode value = body.get(field);
    if (value == null || value.isNull()) {
      return null;
    }
    if (!value.isBoolean()) {
      throw ApiException.badRequest("invalid_field", field + " must be true or false");
    }
    return value.booleanValue();
  }

  private static void ownDevice(Caller caller, ApiRequest http) {
    if (!caller.deviceId().equals(http.pathParam("device"))) {
      throw ApiException.forbidden("not_this_device", "a device manages its own pushers only");
    }
  }
}
