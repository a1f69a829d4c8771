package io.seqsync.sequencer;

import com.fasterxml.jackson.core.io.JsonStringEncoder;

/**
 * The content of message-action notices, JSON that clients apply to the message they name:
 * an edit {@code {"seq":5,"content":"new text"}}, a reaction {@code {"seq":5,"emoji":"👍","added":true}}.
 * Stateless.
 */
final class ActionNotices {
  private ActionNotices() {}

  static String edit(long seq, String content) {
    return "{\"seq\":" + seq + ",\"content\":" + quoted(content) + "}";
  }

  static String reaction(long seq, String emoji, boolean added) {
    return "{\"seq\":" + seq + ",\"emoji\":" + quoted(emoji) + ",\"added\":" + added + "}";
  }

  private static String quoted(String text) {
    return "\"" + new String(JsonStringEncoder.getInstance().quoteAsString(text)) + "\"";
  }
}
