package io.seqsync.projector.postgres;

import java.util.Locale;

/**
 * A seq step other than +1 seen while projecting a conversation (R25): a {@code GAP} (seq beyond
 * the next one: messages are missing) or a {@code REPEAT} (seq at or below the latest one: never
 * written over). Immutable.
 */
public record ProjectionAnomaly(Kind kind, String convId, long expectedSeq, long actualSeq, long msgId) {
  public enum Kind {
    GAP, REPEAT;

    /** The lowercase name, as metrics label it. */
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }
}
