package io.seqsync.ingress.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.seqsync.events.ConvId;
import io.seqsync.ingress.http.ApiException;
import io.seqsync.ingress.http.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The bodies of acks, read reports and drafts, checked field by field: every item of a batch is
 * valid or the whole request is a 400 (413 for a batch over {@link #MAX_ACKS}), so nothing is
 * half-applied.
 */
public final class PositionRequests {
  /** Acks per request: a client acks a sliding window, one item per conversation it rendered in. */
  public static final int MAX_ACKS = 100;

  /** A position in a conversation: an ack or a read report. */
  public record Position(ConvId convId, long seq) {}

  private PositionRequests() {}

  /** {@code {"acks":[{"convId","seq"}, ...]}}: 1 to {@link #MAX_ACKS} items. */
  static List<Position> acks(ObjectNode body) {
    List<ObjectNode> items = Json.objects(body, "acks", MAX_ACKS, "too_many_acks", "{convId, seq}");
    List<Position> positions = new ArrayList<>(items.size());
    for (int i = 0; i < items.size(); i++) {
      positions.add(position(items.get(i), "acks[" + i + "]."));
    }
    return positions;
  }

  /** {@code {"convId","seq"}}. */
  public static Position read(ObjectNode body) {
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
    return new Position(convId(item, prefix), Json.seq(item.get("seq"), prefix + "seq"));
  }

  /** {@code item.convId}, a conversation id; {@code prefix} names the item in the 400. */
  static ConvId convId(ObjectNode item, String prefix) {
    JsonNode convId = item.get("convId");
    if (convId == null || !convId.isTextual()) {
      throw ApiException.badRequest("invalid_field", prefix + "convId must be a string");
    }
    return AccessControl.convId(convId.textValue());
  }
}
