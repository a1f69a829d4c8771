package io.seqsync.notifier.push;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * What the push channel keeps in the outbox for one pusher: a message to tell of ({@code kind}
 * "message", with its sender, type and preview, null when previews are off) or a read on another
 * device ({@code kind} "read": only the badge changes). Immutable; its JSON is the outbox payload.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record PlannedNotification(String kind, long pusherId, long userId, String deviceId, String convId, long seq,
    Long msgId, Long senderId, String type, String preview) {
  static final String MESSAGE = "message";
  static final String READ = "read";
  private static final ObjectMapper JSON = new ObjectMapper();

  boolean isMessage() {
    return MESSAGE.equals(kind);
  }

  byte[] toBytes() {
    try {
      return JSON.writeValueAsBytes(this);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static PlannedNotification of(byte[] payload) {
    try {
      return JSON.readValue(payload, PlannedNotification.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
