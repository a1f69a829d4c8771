package io.seqsync.ingress.attachments;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.seqsync.events.AttachmentRules;
import io.seqsync.events.model.Attachment;
import io.seqsync.events.model.MessageType;
import io.seqsync.ingress.http.ApiException;
import io.seqsync.ingress.http.Json;
import io.seqsync.store.StoredMessage;
import java.util.Optional;

/**
 * The {@code attachment} of a send's body ({@code key}, {@code size}, {@code contentType}, {@code name},
 * and for images {@code width} and {@code height}), checked by the sequencer's own rules, so that
 * a send naming another user's object, or one beyond the limits, is a 400 and never reaches Kafka.
 * Thread-safe (immutable).
 */
public final class SendAttachments {
  private final Optional<Uploads> uploads;

  public SendAttachments(Optional<Uploads> uploads) {
    this.uploads = uploads;
  }

  /** The attachment of {@code body}, or null when it has none. */
  public Attachment of(long senderId, MessageType type, ObjectNode body) {
    JsonNode node = body.get("attachment");
    if (node == null || node.isNull()) {
      return null;
    }
    if (!(node instanceof ObjectNode fields)) {
      throw ApiException.badRequest("invalid_field", "attachment must be an object, not " + Json.kind(node));
    }
    Uploads on = uploads.orElseThrow(AttachmentEndpoints::unavailable);
    Attachment attachment = new Attachment(Json.string(fields, "key"), size(fields.get("size")),
        Json.string(fields, "contentType"), Json.text(fields, "name"), dimension(fields, "width"), dimension(fields, "height"));
    on.rules().problem(senderId, type, attachment).ifPresent(problem -> {
      throw ApiException.badRequest("invalid_attachment", problem);
    });
    return attachment;
  }

  /** Deletes the object of {@code message}, once its recall is stored (none without attachments). */
  public void recalled(StoredMessage message) {
    if (message.attachment() == null || uploads.isEmpty()) {
      return;
    }
    try {
      String key = Json.MAPPER.readTree(message.attachment()).path("key").asText();
      if (AttachmentRules.ownedBy(key, message.senderId())) {
        uploads.get().deleteRecalled(key);
      }
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a stored attachment is not JSON", e);
    }
  }

  static long size(JsonNode value) {
    if (value == null || !value.isIntegralNumber() || !value.canConvertToLong() || value.longValue() < 1) {
      throw ApiException.badRequest("invalid_field", "size must be a positive integer (bytes)");
    }
    return value.longValue();
  }

  private static Integer dimension(ObjectNode fields, String field) {
    JsonNode value = fields.get(field);
    if (value == null || value.isNull()) {
      return null;
    }
    if (!value.isIntegralNumber() || !value.canConvertToInt()) {
      throw ApiException.badRequest("invalid_field", "attachment." + field + " must be an integer (pixels)");
    }
    return value.intValue();
  }
}
