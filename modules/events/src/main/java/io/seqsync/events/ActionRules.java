package io.seqsync.events;

/**
 * The rules of message actions shared by the ingress and the sequencer: how many users a message
 * mentions at most, and what a reaction's emoji is. Stateless.
 */
public final class ActionRules {
  /** The most users one message mentions. */
  public static final int MAX_MENTIONS = 100;
  /** The longest reaction, in UTF-16 units: an emoji sequence or a :shortcode:. */
  public static final int MAX_EMOJI_LENGTH = 32;

  private ActionRules() {}

  /** A reaction's emoji: a short token, no space or control character. */
  public static boolean isEmoji(String emoji) {
    return emoji != null && !emoji.isEmpty() && emoji.length() <= MAX_EMOJI_LENGTH
        && emoji.codePoints().noneMatch(c -> Character.isISOControl(c) || Character.isWhitespace(c));
  }
}
