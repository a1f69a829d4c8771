package io.seqsync.events;

import java.util.Optional;

/**
 * A conversation id. One-to-one: {@code d:{smallerUid}:{largerUid}}, the same whoever writes
 * first. Group: {@code g:{id}} with 1-64 characters of {@code A-Za-z0-9_-}.
 */
public record ConvId(String value, Kind kind) {
  public enum Kind { DIRECT, GROUP }

  private static final int MAX_LENGTH = 66;

  public ConvId {
    if (kindOf(value) != kind) {
      throw new IllegalArgumentException("not a " + kind + " conversation id: " + value);
    }
  }

  /** The one-to-one conversation of two distinct users. */
  public static ConvId direct(long userA, long userB) {
    if (userA <= 0 || userB <= 0 || userA == userB) {
      throw new IllegalArgumentException("a direct conversation needs two distinct positive user ids");
    }
    return new ConvId("d:" + Math.min(userA, userB) + ":" + Math.max(userA, userB), Kind.DIRECT);
  }

  /** The id when {@code text} is a well-formed conversation id, else empty. */
  public static Optional<ConvId> parse(String text) {
    Kind kind = kindOf(text);
    return kind == null ? Optional.empty() : Optional.of(new ConvId(text, kind));
  }

  /** For a direct conversation: is {@code userId} one of its two users? Groups answer false. */
  public boolean namesUser(long userId) {
    if (kind != Kind.DIRECT) {
      return false;
    }
    int colon = value.indexOf(':', 2);
    return UserIds.parse(value, 2, colon) == userId || UserIds.parse(value, colon + 1, value.length()) == userId;
  }

  /** For a direct conversation: its two users, the smaller first. Groups answer an empty list. */
  public java.util.List<Long> directUsers() {
    if (kind != Kind.DIRECT) {
      return java.util.List.of();
    }
    String[] parts = value.split(":");
    return java.util.List.of(Long.parseLong(parts[1]), Long.parseLong(parts[2]));
  }

  @Override
  public String toString() {
    return value;
  }

  private static Kind kindOf(String text) {
    if (text == null || text.length() > MAX_LENGTH || text.length() < 3 || text.charAt(1) != ':') {
      return null;
    }
    // Without substrings or regular expressions: the sequencer parses one per command.
    if (text.charAt(0) == 'g') {
      return IdChars.lettersDigitsOr(text, 2, "_-") ? Kind.GROUP : null; // 1-64 of them: length checked above
    }
    int colon = text.indexOf(':', 2);
    if (text.charAt(0) != 'd' || colon < 0) {
      return null;
    }
    long smaller = UserIds.parse(text, 2, colon);
    long larger = UserIds.parse(text, colon + 1, text.length());
    return smaller > 0 && larger > smaller ? Kind.DIRECT : null;
  }
}
