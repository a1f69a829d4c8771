package io.seqsync.sequencer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The sequencer in a child JVM ({@link SequencerService#main}), so that a test can kill it the way
 * a machine dies: SIGKILL, no shutdown hook, no commit, no flush.
 */
final class SequencerProcess {
  private final Map<String, String> environment;
  private final Path logFile;
  private Process process;
  private int starts;

  SequencerProcess(Map<String, String> environment, Path logFile) {
    this.environment = environment;
    this.logFile = logFile;
  }

  /** Starts the child and waits until its sequencer is running. */
  void start(Duration timeout) throws IOException, InterruptedException {
    String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx384m", "-XX:+UseSerialGC", "-cp", classpath, SequencerService.class.getName()));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
    builder.environment().putAll(environment);
    starts++;
    long logSizeBefore = Files.exists(logFile) ? Files.size(logFile) : 0;
    process = builder.start();
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!runningSince(logSizeBefore)) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        throw new IllegalStateException("sequencer child did not start (start #" + starts + "), see " + logFile);
      }
      Thread.sleep(50);
    }
  }

  /** SIGKILL: the child gets no chance to commit, flush or leave its consumer group. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor();
  }

  private boolean runningSince(long offset) {
    try {
      String log = Files.readString(logFile);
      return log.length() > offset && log.substring((int) offset).contains("sequencer running");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
