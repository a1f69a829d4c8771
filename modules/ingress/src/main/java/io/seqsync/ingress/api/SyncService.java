package io.seqsync.ingress.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.seqsync.ingress.auth.Caller;
import io.seqsync.ingress.http.ApiException;
import io.seqsync.ingress.http.Json;
import io.seqsync.store.ConversationQueries.SyncRow;
import io.seqsync.store.SyncQueries;
import io.seqsync.store.SyncScreens;
import io.seqsync.store.replica.CommittedSeqs;
import io.seqsync.store.replica.Routed;
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

  private final Routed<SyncQueries> pages;

  public SyncService(Routed<SyncQueries> pages) {
    this.pages = pages;
  }

  public Views.Synced sync(Caller caller, ObjectNode body) {
    Map<String, Long> cursors = cursors(body);
    String after = after(body);
    return pages.read(queries -> answer(queries, caller, cursors, after),
        (synced, committed) -> current(synced, cursors, committed));
  }

  private static Views.Synced answer(SyncQueries queries, Caller caller, Map<String, Long> cursors, String after) {
    SyncQueries.Page page = queries.page(caller.userId(), caller.deviceId(), cursors, after);
    String next = page.next().map(SyncService::token).orElse(null);
    return new Views.Synced(withScreens(queries, caller, cursors, page.rows()), System.currentTimeMillis(), next != null,
        next);
  }

  // A replica's answer is as new as the request needs when every entry is at least what this instance
  // knows committed, and every reported conversation with more committed than its cursor is listed
  // (one absent only because it falls on another page sends the answer to the primary: costlier, not wrong).
  static boolean current(Views.Synced synced, Map<String, Long> cursors, CommittedSeqs committed) {
    Map<String, Long> listed = new HashMap<>();
    for (Views.SyncConversation entry : synced.conversations()) {
      if (entry.latestSeq() < committed.seq(entry.convId())) {
        return false;
      }
      listed.put(entry.convId(), entry.latestSeq());
    }
    for (Map.Entry<String, Long> cursor : cursors.entrySet()) {
      if (committed.seq(cursor.getKey()) > cursor.getValue() && !listed.containsKey(cursor.getKey())) {
        return false;
      }
    }
    return true;
  }

  // Each entry with the newest messages the device lacks, from the cursor the page compared it with
  // (the client's, else the device's server cursor) up to the watermark the page answered.
  private static List<Views.SyncConversation> withScreens(SyncQueries pages, Caller caller, Map<String, Long> cursors,
      List<SyncRow> rows) {
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
