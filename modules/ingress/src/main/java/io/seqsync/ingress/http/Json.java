package io.seqsync.ingress.http;

import io.seqsync.events.SealedText;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.seqsync.events.UserIds;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * JSON in and out. Request bodies are read as a tree and their fields checked one by one, so a
 * wrong type is a 400 naming the field (Jackson's data binding would quietly turn a number into a
 * string). Responses are records serialized by the one shared mapper.
 */
public final class Json {
  public static final ObjectMapper MAPPER = JsonMapper.builder()
      .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .build();

  private Json() {}

  /** A response record as JSON bytes (for answers written outside Javalin). */
  public static byte[] bytes(Object view) {
    try {
      return MAPPER.writeValueAsBytes(view);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write " + view.getClass().getSimpleName() + " as JSON", e);
    }
  }

  /** The body as a JSON object, or a 400 when it is not one. */
  public static ObjectNode object(byte[] body) {
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
  public static String string(ObjectNode body, String field) {
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
  public static String text(ObjectNode body, String field) {
    String text = string(body, field);
    if (SealedText.isSealed(text)) {
      throw ApiException.badRequest("invalid_field", field + " must not start with what sealed texts start with (U+0001 s1.)");
    }
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
  public static long seq(JsonNode value, String field) {
    if (value == null || !value.isIntegralNumber() || !value.canConvertToLong() || value.longValue() < 0) {
      throw ApiException.badRequest("invalid_field", field + " must be a non-negative integer");
    }
    return value.longValue();
  }

  /**
   * A required id: a positive 64-bit integer as a canonical decimal string (API.md, Ids), or a JSON
   * integer; {@code what} names it in the 400 ("a user id").
   */
  public static long id(JsonNode value, String field, String what) {
    if (value != null && value.isTextual()) {
      Optional<Long> id = UserIds.parse(value.textValue());
      if (id.isPresent()) {
        return id.get();
      }
    } else if (value != null && value.isIntegralNumber() && value.canConvertToLong() && value.longValue() > 0) {
      return value.longValue();
    }
    throw ApiException.badRequest("invalid_field", field + " must be " + what + " (a positive 64-bit decimal string)");
  }

  /**
   * The required array {@code body[field]} of 1 to {@code max} objects, each shaped like
   * {@code shape} (named in the 400); more than {@code max} is a 413 {@code tooManyCode}.
   */
  public static List<ObjectNode> objects(ObjectNode body, String field, int max, String tooManyCode, String shape) {
    JsonNode items = body.get(field);
    if (items == null || items.isNull()) {
      throw ApiException.badRequest("missing_field", field + " is required");
    }
    if (!items.isArray()) {
      throw ApiException.badRequest("invalid_field", field + " must be an array, not " + kind(items));
    }
    if (items.isEmpty()) {
      throw ApiException.badRequest("invalid_field", field + " must not be empty");
    }
    if (items.size() > max) {
      throw ApiException.tooLarge(tooManyCode, "at most " + max + " " + field + " per request, got " + items.size());
    }
    List<ObjectNode> objects = new ArrayList<>(items.size());
    for (int i = 0; i < items.size(); i++) {
      if (!(items.get(i) instanceof ObjectNode item)) {
        throw ApiException.badRequest("invalid_field", field + "[" + i + "] must be an object " + shape);
      }
      objects.add(item);
    }
    return objects;
  }

  public static String kind(JsonNode node) {
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
