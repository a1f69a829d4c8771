package io.seqsync.notifier.push;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.seqsync.store.BadgeQueries;
import io.seqsync.store.PusherQueries;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The HTTP request of one notification. Kind http: a POST of Matrix's push gateway API
 * ({@code /_matrix/push/v1/notify}) to the pusher's URL: {@code notification} with {@code
 * event_id} (the msgId), {@code room_id} (the convId), {@code sender}, {@code content.body} (the
 * preview, when previews are on), {@code counts.unread} (the badge), {@code prio} and the pusher's
 * {@code devices} entry; a badge update has no {@code event_id} (Matrix's way to say "only the
 * counts changed"). Kind webpush: the same facts as a small JSON, encrypted (RFC 8291), with a
 * VAPID authorization (RFC 8292), {@code TTL} and {@code Urgency}. Thread-safe.
 */
final class GatewayRequests {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String WEB_PUSH_TTL = Integer.toString(24 * 3600);

  private final VapidKeys vapid;

  GatewayRequests(VapidKeys vapid) {
    this.vapid = vapid;
  }

  HttpRequest request(PusherQueries.Pusher pusher, PlannedNotification planned, boolean message,
      BadgeQueries.Badge badge) {
    return "webpush".equals(pusher.kind()) ? webPush(pusher, planned, message, badge)
        : matrix(pusher, planned, message, badge);
  }

  private static HttpRequest matrix(PusherQueries.Pusher pusher, PlannedNotification planned, boolean message,
      BadgeQueries.Badge badge) {
    Map<String, Object> notification = new LinkedHashMap<>();
    if (message) {
      notification.put("event_id", Long.toString(planned.msgId()));
      notification.put("room_id", planned.convId());
      notification.put("type", "m.room.message");
      notification.put("sender", Long.toString(planned.senderId()));
      if (planned.preview() != null) {
        notification.put("content", Map.of("msgtype", "m." + planned.type(), "body", planned.preview()));
      }
    }
    notification.put("prio", message ? "high" : "low");
    notification.put("counts", Map.of("unread", badge.total()));
    Map<String, Object> device = new LinkedHashMap<>();
    device.put("app_id", pusher.appId());
    device.put("pushkey", pusher.pushkey());
    device.put("pushkey_ts", pusher.createdAt() / 1000);
    device.put("data", Map.of("seqsync", facts(planned, message, badge)));
    notification.put("devices", List.of(device));
    return HttpRequest.newBuilder(URI.create(pusher.url())).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofByteArray(json(Map.of("notification", notification)))).build();
  }

  private HttpRequest webPush(PusherQueries.Pusher pusher, PlannedNotification planned, boolean message,
      BadgeQueries.Badge badge) {
    Base64.Decoder base64 = Base64.getUrlDecoder();
    byte[] body = WebPushEncryption.encrypt(json(facts(planned, message, badge)),
        base64.decode(pusher.p256dh()), base64.decode(pusher.auth()));
    URI endpoint = URI.create(pusher.url());
    return HttpRequest.newBuilder(endpoint).header("Content-Encoding", "aes128gcm")
        .header("Content-Type", "application/octet-stream").header("TTL", WEB_PUSH_TTL)
        .header("Urgency", message ? "high" : "low")
        .header("Authorization", vapid.authorization(endpoint, Instant.now()))
        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
  }

  // What seqsync's own clients read: the same in both kinds.
  private static Map<String, Object> facts(PlannedNotification planned, boolean message, BadgeQueries.Badge badge) {
    Map<String, Object> facts = new LinkedHashMap<>();
    facts.put("kind", message ? "message" : "badge");
    facts.put("convId", planned.convId());
    facts.put("seq", planned.seq());
    if (message) {
      facts.put("msgId", Long.toString(planned.msgId()));
      facts.put("senderId", Long.toString(planned.senderId()));
      if (planned.preview() != null) {
        facts.put("preview", planned.preview());
      }
    }
    facts.put("unread", badge.total());
    facts.put("conversationUnread", badge.conversation());
    return facts;
  }

  private static byte[] json(Object value) {
    try {
      return JSON.writeValueAsString(value).getBytes(StandardCharsets.UTF_8);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
