package io.seqsync.ingress;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.seqsync.events.ConvId;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The bodies of acks, read reports and drafts, checked field by field: every item of a batch is
 * valid or the whole request is a 400 (413 for a batch over {@link #MAX_ACKS}), so nothing is
 * half-applied.
 */
final class PositionRequests {
  /** Acks per request: a client acks a sliding window, one item per conversation it rendered in. */
  static final int MAX_ACKS = 100;

  /** A position in a conversation: an ack or a read report. */
  record Position(ConvId convId, long seq) {}

  private PositionRequests() {}

  /** {@code {"acks":[{"convId","seq"}, ...]}}: 1 to {@link #MAX_ACKS} items. */
  static List<Position> acks(ObjectNode body) {
    JsonNode acks = body.get("acks");
    if (acks == null || acks.isNull()) {
      throw ApiException.badRequest("missing_field", "acks is required");
    }
    if (!acks.isArray()) {
      throw ApiException.badRequest("invalid_field", "acks must be an array, not " + Json.kind(acks));
    }
    if (acks.isEmpty()) {
      throw ApiException.badRequest("invalid_field", "acks must not be empty");
    }
    if (acks.size() > MAX_ACKS) {
      throw ApiException.tooLarge("too_many_acks", "at most " + MAX_ACKS + " acks per request, got " + acks.size());
    }
    List<Position> positions = new ArrayList<>(acks.size());
    for (int i = 0; i < acks.size(); i++) {
      if (!(acks.get(i) instanceof ObjectNode item)) {
        throw ApiException.badRequest("invalid_field", "acks[" + i + "] must be an object {convId, seq}");
      }
      positions.add(position(item, "acks[" + i + "]."));
    }
    return positions;
  }

  /** {@code {"convId","seq"}}. */
  static Position read(ObjectNode body) {
    return position(body, "");
  }

  /** {@code {"text"}} of a draft; an empty text clears it. Storable text (see {@link Json#text}). */
  static String draft(ObjectNode body, int maxBytes) {
    String text = Json.text(body, "text");
    if (text.getBytes(StandardCharsets.UTF_8).length > maxBytes) {
      throw ApiException.tooLarge("draft_too_large", "text exceeds " + maxBytes + " bytes");
    }
    return text;
  }

  private static Position position(ObjectNode item, String prefix) {
    JsonNode convId = item.get("convId");
    if (convId == null || !convId.isTextual()) {
      throw ApiException.badRequest("invalid_field", prefix + "convId must be a string");
    }
    return new Position(AccessControl.convId(convId.textValue()), Json.seq(item.get("seq"), prefix + "seq"));
  }
}
