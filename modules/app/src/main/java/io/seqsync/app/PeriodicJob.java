package io.seqsync.app;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A background job on a daemon thread of its own: first run a minute after start (or sooner with a
 * shorter interval), then every interval after the previous run ended. Closing stops it,
 * interrupting a run. The job handles its own failures.
 */
final class PeriodicJob implements AutoCloseable {
  private static final Duration FIRST_RUN = Duration.ofMinutes(1);

  private final ScheduledExecutorService thread;

  PeriodicJob(String threadName, Duration interval, Runnable job) {
    thread = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread running = new Thread(runnable, threadName);
      running.setDaemon(true);
      return running;
    });
    long first = Math.min(FIRST_RUN.toMillis(), interval.toMillis());
    thread.scheduleWithFixedDelay(job, first, interval.toMillis(), TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() {
    thread.shutdownNow();
  }
}
