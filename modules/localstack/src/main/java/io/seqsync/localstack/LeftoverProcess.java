package io.seqsync.localstack;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An embedded server's process that an earlier seqsync on the same data directory started and
 * never stopped: that JVM was killed (SIGKILL, the OOM killer) or halted by its broker, so no
 * shutdown hook ran, and the child still holds its port and its files. Only the holder of the
 * data directory's lock may stop one: no live seqsync can own it then.
 */
final class LeftoverProcess {
  private static final Logger log = LoggerFactory.getLogger(LeftoverProcess.class);
  private static final Duration GRACE = Duration.ofSeconds(30);

  private LeftoverProcess() {}

  /**
   * Stops the process whose id is the first line of {@code pidFile}, if it runs and its command
   * line contains {@code commandMarker} (a process id may have been reused by an unrelated one):
   * SIGTERM, so it shuts down cleanly, and SIGKILL if it is still there after a grace period.
   */
  static void stop(String name, Path pidFile, String commandMarker) {
    Optional<ProcessHandle> leftover = ServerProcesses.fromPidFile(pidFile)
        .filter(process -> process.info().commandLine().map(line -> line.contains(commandMarker)).orElse(false));
    if (leftover.isEmpty()) {
      return;
    }
    ProcessHandle process = leftover.get();
    log.warn("{} (pid {}) was left running by a seqsync that ended without stopping it: stopping it ({})",
        name, process.pid(), pidFile);
    process.destroy();
    if (!awaitExit(process, GRACE)) {
      log.warn("{} (pid {}) did not stop within {}: killing it", name, process.pid(), GRACE);
      process.destroyForcibly();
      if (!awaitExit(process, GRACE)) {
        throw new IllegalStateException(name + " (pid " + process.pid() + ") left running on " + pidFile.getParent()
            + " cannot be stopped: stop it by hand");
      }
    }
  }

  private static boolean awaitExit(ProcessHandle process, Duration timeout) {
    try {
      process.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
      throw new IllegalStateException("cannot wait for pid " + process.pid(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while stopping pid " + process.pid(), e);
    }
  }
}
