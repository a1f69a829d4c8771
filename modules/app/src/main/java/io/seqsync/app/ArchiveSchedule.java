package io.seqsync.app;

import io.seqsync.projector.postgres.MessageArchive;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the archive job (R22) on a thread of its own, a minute after start (or sooner with a shorter
 * interval) and then every interval after the previous run ended. A failed run is logged and
 * retried at the next; the job is restartable anywhere. Closing stops it, interrupting a run
 * between transactions at the latest.
 */
final class ArchiveSchedule implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ArchiveSchedule.class);
  private final MessageArchive archive;
  private final PeriodicJob job;

  ArchiveSchedule(MessageArchive archive, Duration interval) {
    this.archive = archive;
    this.job = new PeriodicJob("seqsync-archive", interval, this::runOnce);
  }

  private void runOnce() {
    try {
      MessageArchive.Moved moved = archive.run(Instant.now());
      if (moved.messages() > 0) {
        log.info("archived {} messages of {} days", moved.messages(), moved.days());
      }
    } catch (RuntimeException e) {
      log.warn("the archive job failed; it resumes at its next run", e);
    }
  }

  @Override
  public void close() {
    job.close();
  }
}
