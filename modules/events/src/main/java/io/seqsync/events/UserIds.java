package io.seqsync.events;

import java.util.Optional;

/** User ids travel as decimal strings of positive 64-bit integers (API.md: Ids). */
public final class UserIds {
  /**
   * The sender of the server API's system messages (docs/api.md, "Server API"): no user signs in
   * as it (the ingress refuses a token naming it), and the sequencer lets it send to any conversation.
   */
  public static final long SYSTEM = Long.MAX_VALUE;
  /** The device of the system's messages. */
  public static final String SYSTEM_DEVICE = "system";

  private UserIds() {}

  /** The id when {@code text} is its canonical decimal form (no sign, no leading zero), else empty. */
  public static Optional<Long> parse(String text) {
    long id = text == null ? -1 : parse(text, 0, text.length());
    return id > 0 ? Optional.of(id) : Optional.empty();
  }

  /**
   * The id written in canonical form in {@code text} from {@code begin} to {@code end}, else -1.
   * Allocation-free for hot paths (the sequencer parses conversation ids per command).
   */
  public static long parse(CharSequence text, int begin, int end) {
    int length = end - begin;
    if (length <= 0 || length > 19 || text.charAt(begin) == '0') {
      return -1;
    }
    for (int i = begin; i < end; i++) {
      if (text.charAt(i) < '0' || text.charAt(i) > '9') {
        return -1;
      }
    }
    try {
      return Long.parseLong(text, begin, end, 10);
    } catch (NumberFormatException tooLarge) {
      return -1;
    }
  }
}
