package io.seqsync.sequencer;

/**
 * The UTF-8 length of a string, as {@code getBytes(UTF_8).length} gives it, without encoding it:
 * the sequencer checks a size limit on every message.
 */
final class Utf8Length {
  private Utf8Length() {}

  /** Does {@code text} take more than {@code limit} bytes in UTF-8? */
  static boolean exceeds(String text, int limit) {
    // Every char takes 1 to 3 bytes (a surrogate pair 4 for its two chars).
    if (text.length() > limit) {
      return true;
    }
    if ((long) text.length() * 3 <= limit) {
      return false;
    }
    return of(text) > limit;
  }

  static long of(String text) {
    long bytes = 0;
    int length = text.length();
    for (int i = 0; i < length; i++) {
      char c = text.charAt(i);
      if (c < 0x80) {
        bytes += 1;
      } else if (c < 0x800) {
        bytes += 2;
      } else if (!Character.isSurrogate(c)) {
        bytes += 3;
      } else if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(text.charAt(i + 1))) {
        bytes += 4;
        i++;
      } else {
        bytes += 1; // a lone surrogate: the encoder writes '?'
      }
    }
    return bytes;
  }
}
