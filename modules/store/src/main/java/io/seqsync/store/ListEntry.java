package io.seqsync.store;

/**
 * One conversation of a user's list (R20), whether Redis's index or PostgreSQL answered it: name
 * null but for groups; lastMessage null for a conversation without messages yet; updatedAt the
 * time of its last message (0: none). Immutable.
 */
public record ListEntry(String convId, String name, long latestSeq, StoredMessage lastMessage, long readSeq, long unread,
    String draft, long updatedAt, long mentions) {

  /** An entry and its place in the list (its last activity), as PostgreSQL answers it. */
  public record Ranked(ListEntry entry, long activity) {
    /** The list's order: last activity, then convId, both descending (as {@link ListCursor} pages). */
    public static final java.util.Comparator<Ranked> LIST_ORDER = java.util.Comparator.comparingLong(Ranked::activity)
        .thenComparing(ranked -> ranked.entry().convId()).reversed();
  }
}
