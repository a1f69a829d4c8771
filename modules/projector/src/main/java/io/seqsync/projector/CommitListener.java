package io.seqsync.projector;

import io.seqsync.events.model.Event;
import io.seqsync.store.ProjectionResult;
import java.util.List;

/**
 * Told about each batch once PostgreSQL has committed it: the place for whatever must follow the
 * store (caches, push), so that it never runs ahead of it (R1). Runs on the listeners' thread
 * (see {@link CommitListeners}), batch after batch in commit order; a slow listener holds up the
 * projector once eight batches wait for it. Never throw for a condition a retry would not fix: a
 * failure is logged and the batch is not replayed, since its rows are already committed.
 */
@FunctionalInterface
public interface CommitListener {
  void committed(List<Event> events, ProjectionResult result);
}
