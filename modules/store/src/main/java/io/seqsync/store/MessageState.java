package io.seqsync.store;

import java.util.List;

/**
 * What message actions made of a message (edits, reactions, a reply, mentions), as a page shows it:
 * {@code editedAt} null when never edited; {@code replyTo} the seq it replies to and {@code quote}
 * that message's sender and opening (null when it is not stored, or not looked up); {@code reactionCount}
 * the stored count and {@code reactions} the counts per emoji for the caller (empty until looked up).
 * A recalled message has none. Immutable.
 */
public record MessageState(Long editedAt, Long replyTo, Quote quote, List<Long> mentions, int reactionCount,
    List<Reaction> reactions) {
  /** The longest quote of a replied-to message, in characters. */
  public static final int QUOTE_CHARS = 100;

  public MessageState {
    mentions = List.copyOf(mentions);
    reactions = List.copyOf(reactions);
  }

  /** The replied-to message: its sender and the start of its current content. */
  public record Quote(long seq, long senderId, String type, String text) {}

  /** An emoji's reactions on a message: how many, and whether the caller is among them. */
  public record Reaction(String emoji, long count, boolean mine) {}

  /** The state the columns give, or null when there is none to show. */
  static MessageState of(Long editedAt, Long replyTo, List<Long> mentions, int reactionCount) {
    return editedAt == null && replyTo == null && mentions.isEmpty() && reactionCount == 0 ? null
        : new MessageState(editedAt, replyTo, null, mentions, reactionCount, List.of());
  }

  MessageState with(Quote quote, List<Reaction> reactions) {
    return new MessageState(editedAt, replyTo, quote, mentions, reactionCount, reactions);
  }
}
