package io.seqsync.ingress.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.seqsync.ingress.auth.Caller;
import io.seqsync.ingress.http.ApiException;
import io.seqsync.ingress.http.Json;
import io.seqsync.store.ConversationQueries.SyncRow;
import io.seqsync.store.SyncQueries;
import io.seqsync.store.SyncScreens;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The reconnect handshake (R13): {@code {"cursors": {convId: seq, ...}, "next": token}} in (both
 * may be omitted), one bounded page of the caller's conversations with something new for this
 * device out ({@link SyncQueries}), with {@code limited} and the {@code next} token when more may
 * follow. The page's most recently active conversations carry their first screen: the newest
 * messages the device lacks ({@link SyncScreens}), so that a device a few messages behind in each
 * needs no fetch. The token is the convId the next page starts after, base64url-encoded: opaque to
 * clients, and harmless to forge (a page only ever holds the caller's own conversations).
 * Thread-safe.
 */
public final class SyncService {
  public static final int MAX_CURSORS = 10_000;
  private static final int MAX_NEXT_CHARS = 512;

  private final SyncQueries pages;

  public SyncService(SyncQueries pages) {
    this.pages = pages;
  }

  public Views.Synced sync(Caller caller, ObjectNode body) {
    Map<String, Long> cursors = cursors(body);
    SyncQueries.Page page = pages.page(caller.userId(), caller.deviceId(), cursors, after(body));
    String next = page.next().map(SyncService::token).orElse(null);
    return new Views.Synced(withScreens(caller, cursors, page.rows()), System.currentTimeMillis(), next != null, next);
  }

  // Each entry with the newest messages the device lacks, from the cursor the page compared it with
  // (the client's, else the device's server cursor) up to the watermark the page answered.
  private List<Views.SyncConversation> withScreens(Caller caller, Map<String, Long> cursors, List<SyncRow> rows) {
    List<SyncScreens.Ask> asks = rows.stream()
        .map(row -> new SyncScreens.Ask(row.convId(), cursors.getOrDefault(row.convId(), row.deviceCursor()), row.latestSeq()))
        .toList();
    Map<String, SyncScreens.Screen> screens = pages.screens(caller.userId(), asks);
    return rows.stream().map(row -> {
      Views.SyncConversation entry = Views.SyncConversation.of(row);
      SyncScreens.Screen screen = screens.get(row.convId());
      return screen == null ? entry : entry.with(screen);
    }).toList();
  }

  static Map<String, Long> cursors(ObjectNode body) {
    JsonNode node = body.get("cursors");
    if (node == null || node.isNull()) {
      return Map.of();
    }
    if (!node.isObject()) {
      throw ApiException.badRequest("invalid_field", "cursors must be an object of convId to seq, not " + Json.kind(node));
    }
    if (node.size() > MAX_CURSORS) {
      throw ApiException.tooLarge("too_many_cursors", "at most " + MAX_CURSORS + " cursors, got " + node.size());
    }
    Map<String, Long> cursors = new HashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
      Map.Entry<String, JsonNode> field = fields.next();
      AccessControl.convId(field.getKey());
      cursors.put(field.getKey(), Json.seq(field.getValue(), "cursors." + field.getKey()));
    }
    return cursors;
  }

  // The convId the page starts after: null for the first page.
  static String after(ObjectNode body) {
    JsonNode node = body.get("next");
    if (node == null || node.isNull()) {
      return null;
    }
    if (!node.isTextual() || node.textValue().length() > MAX_NEXT_CHARS) {
      throw invalidNext();
    }
    try {
      String convId = new String(Base64.getUrlDecoder().decode(node.textValue()), StandardCharsets.UTF_8);
      return AccessControl.convId(convId).value();
    } catch (IllegalArgumentException | ApiException e) {
      throw invalidNext();
    }
  }

  private static String token(String convId) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(convId.getBytes(StandardCharsets.UTF_8));
  }

  private static ApiException invalidNext() {
    return ApiException.badRequest("invalid_next", "next must be the token of a previous sync answer");
  }
}
