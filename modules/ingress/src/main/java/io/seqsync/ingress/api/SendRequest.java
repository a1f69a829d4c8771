package io.seqsync.ingress.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.seqsync.events.model.MessageType;
import io.seqsync.ingress.http.ApiException;
import io.seqsync.ingress.http.Json;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The body of a send, validated by the same rules as the sequencer's: clientMsgId 1-128
 * characters without control characters, type text, image or file, content at most
 * {@code maxContentBytes} bytes of UTF-8 without NUL (and no unpaired surrogate anywhere).
 */
public record SendRequest(String clientMsgId, MessageType type, String content, ActionRequests.SendActions actions) {
  static final int MAX_CLIENT_MSG_ID = 128;
  private static final Map<String, MessageType> CLIENT_TYPES =
      Map.of("text", MessageType.TEXT, "image", MessageType.IMAGE, "file", MessageType.FILE);

  public static SendRequest parse(ObjectNode body, int maxContentBytes) {
    String clientMsgId = Json.text(body, "clientMsgId");
    if (clientMsgId.isEmpty() || clientMsgId.length() > MAX_CLIENT_MSG_ID
        || clientMsgId.chars().anyMatch(Character::isISOControl)) {
      throw ApiException.badRequest("invalid_field",
          "clientMsgId must be 1-" + MAX_CLIENT_MSG_ID + " characters without control characters");
    }
    String typeName = Json.string(body, "type");
    MessageType type = CLIENT_TYPES.get(typeName);
    if (type == null) {
      throw ApiException.badRequest("invalid_field", "type must be text, image or file");
    }
    String content = Json.text(body, "content");
    if (content.getBytes(StandardCharsets.UTF_8).length > maxContentBytes) {
      throw ApiException.tooLarge("content_too_large", "content exceeds " + maxContentBytes + " bytes");
    }
    return new SendRequest(clientMsgId, type, content, ActionRequests.sendActions(body));
  }
}
