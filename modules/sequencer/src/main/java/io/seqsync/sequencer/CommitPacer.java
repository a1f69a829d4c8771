package io.seqsync.sequencer;

import java.time.Duration;

/**
 * Commits a command that comes after a quiet spell at once. Kafka Streams commits on its timer,
 * which it reads only between polls, and a timer commit that found nothing to commit restarts
 * the interval; so after a quiet spell the first command waited up to an interval for a commit
 * that had nothing else to wait for. When the stream thread processed nothing for a commit
 * interval, the task that processes the next command asks for the commit
 * ({@code ProcessorContext.commit()}); under load, commands keep coming and the timer keeps the
 * cadence (docs/design.md, "Commit interval").
 *
 * <p>One pacer per stream thread, shared by the thread's tasks (a commit takes all of them), so
 * not thread-safe: only its thread uses it.
 */
final class CommitPacer {
  private final long intervalMs;
  private long lastProcessedMs;

  CommitPacer(Duration interval) {
    this.intervalMs = interval.toMillis();
    this.lastProcessedMs = -intervalMs;
  }

  /**
   * A task of this thread processed a command at {@code nowMs}; {@code askForCommit} (that task's
   * own request: Streams ignores one from a task with nothing to commit) runs when the thread had
   * processed nothing for an interval before it.
   */
  void processed(long nowMs, Runnable askForCommit) {
    if (nowMs - lastProcessedMs >= intervalMs) {
      askForCommit.run();
    }
    lastProcessedMs = nowMs;
  }
}
