package io.seqsync.projector;

/**
 * Told about each batch once PostgreSQL has committed it: the place for whatever must follow the
 * store (caches, push), so that it never runs ahead of it (R1). Runs on the listeners' thread
 * (see {@link CommitListeners}), batch after batch in commit order; a slow listener holds up the
 * projector once eight batches wait for it. Never throw for a condition a retry would not fix: a
 * failure is logged and the batch is not told again, since its rows are already committed (a
 * listener that must not miss one keeps its own watermark: {@link ConversationIndexer}).
 */
@FunctionalInterface
public interface CommitListener {
  void committed(CommittedBatch batch);

  /** The listeners' thread has had no batch for {@link CommitListeners#IDLE_TICK}: time for catching up. */
  default void idle() {}
}
