package io.seqsync.ingress;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;

/**
 * JSON in and out. Request bodies are read as a tree and their fields checked one by one, so a
 * wrong type is a 400 naming the field (Jackson's data binding would quietly turn a number into a
 * string). Responses are records serialized by the one shared mapper.
 */
final class Json {
  static final ObjectMapper MAPPER = JsonMapper.builder()
      .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .build();

  private Json() {}

  /** A response record as JSON bytes (for answers written outside Javalin). */
  static byte[] bytes(Object view) {
    try {
      return MAPPER.writeValueAsBytes(view);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write " + view.getClass().getSimpleName() + " as JSON", e);
    }
  }

  /** The body as a JSON object, or a 400 when it is not one. */
  static ObjectNode object(byte[] body) {
    JsonNode node;
    try {
      node = body.length == 0 ? null : MAPPER.readTree(body);
    } catch (JsonProcessingException e) {
      throw ApiException.badRequest("invalid_json", "the body is not valid JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw ApiException.badRequest("invalid_json", "the body cannot be read");
    }
    if (node == null || node.isMissingNode()) {
      throw ApiException.badRequest("invalid_json", "the body must be a JSON object");
    }
    if (!(node instanceof ObjectNode object)) {
      throw ApiException.badRequest("invalid_json", "the body must be a JSON object, not " + kind(node));
    }
    return object;
  }

  /** A required string field. */
  static String string(ObjectNode body, String field) {
    JsonNode value = body.get(field);
    if (value == null || value.isNull()) {
      throw ApiException.badRequest("missing_field", field + " is required");
    }
    if (!value.isTextual()) {
      throw ApiException.badRequest("invalid_field", field + " must be a string, not " + kind(value));
    }
    return value.textValue();
  }

  /**
   * A required string field that is storable text: no NUL (PostgreSQL's text cannot hold it) and
   * no unpaired surrogate (it would be silently replaced by {@code ?} on the way to storage).
   */
  static String text(ObjectNode body, String field) {
    String text = string(body, field);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\u0000') {
        throw ApiException.badRequest("invalid_field", field + " must not contain NUL (U+0000)");
      }
      if (Character.isSurrogate(c)) {
        if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
          i++;
        } else {
          throw ApiException.badRequest("invalid_field", field + " contains an unpaired UTF-16 surrogate");
        }
      }
    }
    return text;
  }

  /** A non-negative integer that fits 64 bits. */
  static long seq(JsonNode value, String field) {
    if (value == null || !value.isIntegralNumber() || !value.canConvertToLong() || value.longValue() < 0) {
      throw ApiException.badRequest("invalid_field", field + " must be a non-negative integer");
    }
    return value.longValue();
  }

  static String kind(JsonNode node) {
    return switch (node.getNodeType()) {
      case ARRAY -> "an array";
      case OBJECT -> "an object";
      case STRING -> "a string";
      case NUMBER -> "a number";
      case BOOLEAN -> "a boolean";
      case NULL -> "null";
      default -> node.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
    };
  }
}
