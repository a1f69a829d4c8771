package io.seqsync.ingress.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.seqsync.events.ActionRules;
import io.seqsync.ingress.http.ApiException;
import io.seqsync.ingress.http.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The message-action parts of requests, validated by the sequencer's rules: a send's
 * {@code replyTo} (a positive seq) and {@code mentions} (user ids, at most
 * {@link ActionRules#MAX_MENTIONS}), an edit's {@code content}, a reaction's emoji.
 */
final class ActionRequests {
  /** A send's reply and mentions: replyTo null when it replies to nothing. */
  record SendActions(Long replyTo, List<Long> mentions) {
    static final SendActions NONE = new SendActions(null, List.of());
  }

  private ActionRequests() {}

  static SendActions sendActions(ObjectNode body) {
    JsonNode replyTo = body.get("replyTo");
    JsonNode mentions = body.get("mentions");
    if ((replyTo == null || replyTo.isNull()) && (mentions == null || mentions.isNull())) {
      return SendActions.NONE;
    }
    Long seq = null;
    if (replyTo != null && !replyTo.isNull()) {
      seq = Json.seq(replyTo, "replyTo");
      if (seq < 1) {
        throw ApiException.badRequest("invalid_field", "replyTo must be a positive seq");
      }
    }
    return new SendActions(seq, mentions(mentions));
  }

  private static List<Long> mentions(JsonNode list) {
    if (list == null || list.isNull()) {
      return List.of();
    }
    if (!list.isArray()) {
      throw ApiException.badRequest("invalid_field", "mentions must be an array of user ids, not " + Json.kind(list));
    }
    if (list.size() > ActionRules.MAX_MENTIONS) {
      throw ApiException.badRequest("invalid_field", "at most " + ActionRules.MAX_MENTIONS + " mentions");
    }
    Set<Long> ids = new LinkedHashSet<>();
    for (int i = 0; i < list.size(); i++) {
      ids.add(Json.id(list.get(i), "mentions[" + i + "]", "a user id"));
    }
    return new ArrayList<>(ids);
  }

  /** An edit's body: {content}, at most {@code maxContentBytes} bytes of UTF-8. */
  static String editContent(ObjectNode body, int maxContentBytes) {
    String content = Json.text(body, "content");
    if (content.getBytes(StandardCharsets.UTF_8).length > maxContentBytes) {
      throw ApiException.tooLarge("content_too_large", "content exceeds " + maxContentBytes + " bytes");
    }
    return content;
  }

  /** A reaction's emoji, from the path. */
  static String emoji(String text) {
    if (!ActionRules.isEmoji(text)) {
      throw ApiException.badRequest("invalid_parameter", "an emoji is 1-" + ActionRules.MAX_EMOJI_LENGTH
          + " characters without spaces or control characters");
    }
    return text;
  }
}
