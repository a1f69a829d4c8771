package io.seqsync.projector;

import io.seqsync.events.model.Event;
import io.seqsync.store.ProjectionResult;
import java.util.List;

/**
 * Told about each batch once PostgreSQL has committed it: the place for whatever must follow the
 * store (caches, push), so that it never runs ahead of it (R1). Runs on the projector's thread:
 * keep it short, and never throw for a condition a retry would not fix — a failure is logged and
 * the batch is not replayed, since its rows are already committed.
 */
@FunctionalInterface
public interface CommitListener {
  void committed(List<Event> events, ProjectionResult result);
}
