package io.seqsync.store;

import java.util.Optional;

/**
 * Where a page of the conversation list ends: the last entry's activity time and convId
 * ({@code "1700000000000:d:1:2"}). Redis orders equal scores by member, descending here, so the
 * next page is every entry below that pair; ties are paged through, never skipped. Immutable.
 */
public record ListCursor(long activity, String convId) {
  /** The cursor a client sent back, or empty when it is not one. */
  public static Optional<ListCursor> parse(String text) {
    int colon = text.indexOf(':');
    if (colon < 1 || colon == text.length() - 1) {
      return Optional.empty();
    }
    try {
      return Optional.of(new ListCursor(Long.parseLong(text.substring(0, colon)), text.substring(colon + 1)));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  @Override
  public String toString() {
    return activity + ":" + convId;
  }

  /** True for an entry that comes after this cursor: a lower activity, or the same one and a lower convId. */
  public boolean isAbove(long entryActivity, String entryConvId) {
    return entryActivity < activity || (entryActivity == activity && entryConvId.compareTo(convId) < 0);
  }
}
