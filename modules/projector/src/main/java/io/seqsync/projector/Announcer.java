package io.seqsync.projector;

import io.seqsync.events.model.StoredOutcome;
import java.util.List;

/**
 * Tells the ingress what a committed batch's commands came to. Called on the projector's thread
 * right after the PostgreSQL commit; must not block for long and must not throw.
 */
@FunctionalInterface
public interface Announcer {
  /** Nobody waits for the outcomes (a replay). */
  Announcer NONE = outcomes -> { };

  void announce(List<StoredOutcome> outcomes);
}
