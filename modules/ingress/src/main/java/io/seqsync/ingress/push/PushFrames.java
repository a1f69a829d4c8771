package io.seqsync.ingress.push;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.seqsync.ingress.api.Views;
import io.seqsync.ingress.auth.Caller;
import io.seqsync.ingress.http.ErrorBody;
import io.seqsync.ingress.http.Json;
import io.seqsync.redis.PushNotice;
import java.util.List;
import java.util.Optional;

/** The JSON frames of the push stream (API.md: Push stream). */
final class PushFrames {
  record MessageFrame(String type, String mode, Views.Message message) {}

  /** A read receipt ({@code read}) or a delivered one ({@code delivered}: a device of the user acked up to seq). */
  record ReadFrame(String type, String convId, String userId, long seq) {}

  record CursorFrame(String type, String convId, String deviceId, long seq) {}

  record DraftFrame(String type, String convId, String text, String deviceId) {}

  record RecallFrame(String type, String convId, long seq, Views.Message notice) {}

  /** roles: the roles the notice moved, settings: a group's new settings; each only when the notice has them. */
  record MembershipFrame(String type, String convId, List<String> added, List<String> removed, Views.Message notice,
      @JsonInclude(JsonInclude.Include.NON_NULL) JsonNode roles,
      @JsonInclude(JsonInclude.Include.NON_NULL) JsonNode settings) {}

  @JsonInclude(JsonInclude.Include.NON_NULL)
  record SyncFrame(String type, List<Views.SyncConversation> conversations, long serverTime, boolean limited, String next) {}

  record ErrorFrame(String type, ErrorBody.Error error) {}

  /** An error frame of a frame refused by a limit: {@code retryAfterMs} until a frame is taken again. */
  record LimitedFrame(String type, ErrorBody.Error error, long retryAfterMs) {}

  record PongFrame(String type) {}

  private PushFrames() {}

  /** The frame of {@code notice} for one connected device; empty when that device caused it. */
  static Optional<String> render(PushNotice notice, Caller to) {
    boolean ownDevice = notice.userId() == to.userId() && notice.deviceId().equals(to.deviceId());
    Object frame = switch (notice.kind()) {
      case MESSAGE -> new MessageFrame("message", "push", Views.Message.of(notice.message()));
      case READ -> ownDevice ? null
          : new ReadFrame("read", notice.convId(), Long.toString(notice.userId()), notice.seq());
      case CURSOR -> ownDevice ? null : new CursorFrame("cursor", notice.convId(), notice.deviceId(), notice.seq());
      case DRAFT -> ownDevice ? null : new DraftFrame("draft", notice.convId(), notice.text(), notice.deviceId());
      case RECALL -> new RecallFrame("recall", notice.convId(), notice.seq(), Views.Message.of(notice.message()));
      case MEMBERSHIP -> membership(notice);
      case DELIVERED -> new ReadFrame("delivered", notice.convId(), Long.toString(notice.userId()), notice.seq());
    };
    return Optional.ofNullable(frame).map(PushFrames::json);
  }

  // A group notice's roles and settings, read from its content (JSON the sequencer wrote).
  private static MembershipFrame membership(PushNotice notice) {
    JsonNode content;
    try {
      content = Json.MAPPER.readTree(notice.message().content());
    } catch (JsonProcessingException e) {
      content = null;
    }
    JsonNode roles = content == null ? null : content.get("roles");
    JsonNode settings = content == null ? null : content.get("settings");
    return new MembershipFrame("membership", notice.convId(), ids(notice.added()), ids(notice.removed()),
        Views.Message.of(notice.message()), roles, settings);
  }

  static String sync(Views.Synced synced) {
    return json(new SyncFrame("sync", synced.conversations(), synced.serverTime(), synced.limited(), synced.next()));
  }

  static String error(String code, String message) {
    return json(new ErrorFrame("error", new ErrorBody.Error(code, message)));
  }

  static String limited(String message, long retryAfterMs) {
    return json(new LimitedFrame("error", new ErrorBody.Error("rate_limited", message), retryAfterMs));
  }

  static String pong() {
    return json(new PongFrame("pong"));
  }

  private static List<String> ids(List<Long> ids) {
    return ids.stream().map(String::valueOf).toList();
  }

  static String json(Object frame) {
    try {
      return Json.MAPPER.writeValueAsString(frame);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot render a push frame", e);
    }
  }
}
