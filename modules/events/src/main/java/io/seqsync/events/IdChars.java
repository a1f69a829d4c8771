package io.seqsync.events;

/** Character classes of ids, checked by a loop: the sequencer checks several per command. */
final class IdChars {
  private IdChars() {}

  /** Is every character of {@code text} from {@code begin} on an ASCII letter, a digit or one of {@code extra}? */
  static boolean lettersDigitsOr(String text, int begin, String extra) {
    for (int i = begin; i < text.length(); i++) {
      char c = text.charAt(i);
      if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || extra.indexOf(c) >= 0)) {
        return false;
      }
    }
    return true;
  }
}
