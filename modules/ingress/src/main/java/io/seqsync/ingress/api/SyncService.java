package io.seqsync.ingress.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.seqsync.ingress.auth.Caller;
import io.seqsync.ingress.http.ApiException;
import io.seqsync.ingress.http.Json;
import io.seqsync.store.ConversationQueries;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * The reconnect handshake (R13): {@code {"cursors": {convId: seq, ...}}} in (cursors may be
 * omitted), the caller's conversations with something new for this device out. Thread-safe.
 */
public final class SyncService {
  public static final int MAX_CURSORS = 10_000;

  private final ConversationQueries conversations;

  public SyncService(ConversationQueries conversations) {
    this.conversations = conversations;
  }

  public Views.Synced sync(Caller caller, ObjectNode body) {
    Map<String, Long> cursors = cursors(body);
    return new Views.Synced(conversations.sync(caller.userId(), caller.deviceId(), cursors).stream()
        .map(Views.SyncConversation::of).toList(), System.currentTimeMillis());
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
}
