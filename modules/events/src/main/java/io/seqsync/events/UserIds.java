package io.seqsync.events;

import java.util.Optional;

/** User ids travel as decimal strings of positive 64-bit integers (API.md: Ids). */
public final class UserIds {
  private UserIds() {}

  /** The id when {@code text} is its canonical decimal form (no sign, no leading zero), else empty. */
  public static Optional<Long> parse(String text) {
    if (text == null || text.isEmpty() || text.length() > 19 || text.charAt(0) == '0') {
      return Optional.empty();
    }
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) < '0' || text.charAt(i) > '9') {
        return Optional.empty();
      }
    }
    try {
      return Optional.of(Long.parseLong(text));
    } catch (NumberFormatException tooLarge) {
      return Optional.empty();
    }
  }
}
