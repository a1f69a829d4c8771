package io.seqsync.projector;

import io.seqsync.events.model.Event;
import io.seqsync.projector.postgres.AppliedBatch;
import java.util.List;
import java.util.Map;

/**
 * A batch PostgreSQL has committed, as its commit listeners are told of it: its events, what they
 * came to, and the next offset of each events-topic partition it covered. Immutable.
 */
public record CommittedBatch(List<Event> events, AppliedBatch result, Map<Integer, Long> nextOffsets) {
  public CommittedBatch {
    events = List.copyOf(events);
    nextOffsets = Map.copyOf(nextOffsets);
  }
}
