package io.seqsync.ingress.notify;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.seqsync.ingress.http.ApiException;
import io.seqsync.ingress.http.Json;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.Locale;

/**
 * A pusher as a device registers it, checked: kind {@code http} ({@code url} of a push gateway
 * ending in {@code /_matrix/push/v1/notify}, {@code pushkey}, {@code appId}) or {@code webpush} (a
 * browser's {@code PushSubscription} as its {@code toJSON()} gives it: {@code endpoint} and {@code
 * keys.p256dh}, {@code keys.auth}). URLs are https, or http to a loopback address (a gateway on the
 * same host): the server calls them. Immutable.
 */
record PusherRequest(String kind, String url, String pushkey, String appId, String p256dh, String auth) {
  static final String HTTP = "http";
  static final String WEBPUSH = "webpush";
  private static final int MAX_URL = 2048;
  private static final int MAX_FIELD = 512;

  static PusherRequest parse(byte[] body) {
    ObjectNode json = Json.object(body);
    String kind = Json.string(json, "kind");
    if (HTTP.equals(kind)) {
      String url = checkedUrl(Json.string(json, "url"), "url");
      if (!URI.create(url).getPath().endsWith("/_matrix/push/v1/notify")) {
        throw ApiException.badRequest("invalid_field", "url must be a push gateway's /_matrix/push/v1/notify");
      }
      return new PusherRequest(kind, url, bounded(json, "pushkey"), bounded(json, "appId"), null, null);
    }
    if (WEBPUSH.equals(kind)) {
      String endpoint = checkedUrl(Json.string(json, "endpoint"), "endpoint");
      JsonNode keys = json.get("keys");
      if (!(keys instanceof ObjectNode keyObject)) {
        throw ApiException.badRequest("missing_field", "keys {p256dh, auth} is required");
      }
      String p256dh = Json.string(keyObject, "p256dh");
      String auth = Json.string(keyObject, "auth");
      byte[] point = base64(p256dh, "keys.p256dh");
      try {
        io.seqsync.notifier.push.WebPushEncryption.publicKey(point);
      } catch (GeneralSecurityException e) {
        throw ApiException.badRequest("invalid_field", "keys.p256dh must be a P-256 public key (65 bytes, uncompressed)");
      }
      if (base64(auth, "keys.auth").length != 16) {
        throw ApiException.badRequest("invalid_field", "keys.auth must be 16 bytes");
      }
      return new PusherRequest(kind, endpoint, null, null, p256dh, auth);
    }
    throw ApiException.badRequest("invalid_field", "kind must be http or webpush");
  }

  private static String bounded(ObjectNode json, String field) {
    String value = Json.text(json, field);
    if (value.isEmpty() || value.length() > MAX_FIELD) {
      throw ApiException.badRequest("invalid_field", field + " must be 1-" + MAX_FIELD + " characters");
    }
    return value;
  }

  private static byte[] base64(String text, String field) {
    try {
      return Base64.getUrlDecoder().decode(text.replace('+', '-').replace('/', '_').replace("=", ""));
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest("invalid_field", field + " must be base64url");
    }
  }

  private static String checkedUrl(String text, String field) {
    URI uri;
    try {
      uri = text.length() > MAX_URL ? null : new URI(text);
    } catch (URISyntaxException e) {
      uri = null;
    }
    if (uri == null || uri.getHost() == null || uri.getRawUserInfo() != null || uri.getRawFragment() != null) {
      throw ApiException.badRequest("invalid_field", field + " must be an absolute http(s) URL of at most " + MAX_URL
          + " characters, without user info or fragment");
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (scheme.equals("https") || (scheme.equals("http") && loopback(uri.getHost()))) {
      return text;
    }
    throw ApiException.badRequest("invalid_field", field + " must be https (http only to a loopback address)");
  }

  private static boolean loopback(String host) {
    if (host.equals("localhost")) {
      return true;
    }
    // A literal address only: a name is not looked up here.
    if (!host.chars().allMatch(c -> Character.isDigit(c) || c == '.' || c == ':' || c == '[' || c == ']')) {
      return false;
    }
    try {
      return InetAddress.getByName(host.replace("[", "").replace("]", "")).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }
}
