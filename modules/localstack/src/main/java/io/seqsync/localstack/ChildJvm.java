package io.seqsync.localstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A main class run in a child JVM on this JVM's class path, so that a test can kill it the way a
 * machine dies: SIGKILL, no shutdown hook, no commit, no flush. The child's output is appended to
 * a log file; {@link #start} returns once the child has logged a given text since that start.
 * Not thread-safe: one test thread drives it.
 */
public final class ChildJvm implements AutoCloseable {
  private static final List<String> TEST_JVM_OPTIONS = List.of("-Xmx384m", "-XX:+UseSerialGC");
  private static final int LOG_TAIL_CHARS = 4_000;

  private final String mainClass;
  private final List<String> jvmOptions;
  private final List<String> arguments;
  private final Map<String, String> environment;
  private final Path logFile;
  private final String readyText;
  private Process process;
  private int starts;

  /** A child running {@code mainClass} with {@code environment} added to ours, ready once it logs {@code readyText}. */
  public ChildJvm(Class<?> mainClass, Map<String, String> environment, Path logFile, String readyText) {
    this(mainClass, TEST_JVM_OPTIONS, List.of(), environment, logFile, readyText);
  }

  /** The same, with the child's JVM options and program arguments. */
  public ChildJvm(Class<?> mainClass, List<String> jvmOptions, List<String> arguments, Map<String, String> environment,
      Path logFile, String readyText) {
    this.mainClass = mainClass.getName();
    this.jvmOptions = List.copyOf(jvmOptions);
    this.arguments = List.copyOf(arguments);
    this.environment = Map.copyOf(environment);
    this.logFile = logFile;
    this.readyText = readyText;
  }

  /** Starts the child and waits until it has logged the ready text; fails if it dies or takes longer than {@code timeout}. */
  public void start(Duration timeout) throws IOException, InterruptedException {
    if (isAlive()) {
      throw new IllegalStateException(mainClass + " is running already");
    }
    // Under surefire, java.class.path is a manifest-only jar; the real class path is in this property.
    String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    ProcessBuilder builder = new ProcessBuilder(javaCommand(classpath)).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
    builder.environment().putAll(environment);
    starts++;
    long logSizeBefore = Files.exists(logFile) ? Files.size(logFile) : 0;
    process = builder.start();
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!loggedSince(logSizeBefore, readyText)) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        throw new IllegalStateException(mainClass + " did not log '" + readyText + "' (start #" + starts + ", "
            + (process.isAlive() ? "still running" : "exited with " + process.exitValue()) + "); log tail:\n" + logTail());
      }
      Thread.sleep(50);
    }
  }

  /** SIGKILL, then waits for the process to be gone. A no-op when it is not running. */
  public void kill() throws InterruptedException {
    if (process != null) {
      process.destroyForcibly();
      process.waitFor();
    }
  }

  /** SIGTERM (its shutdown hooks run), then SIGKILL if it is still there after {@code grace}. A no-op when it is not running. */
  public void stop(Duration grace) throws InterruptedException {
    if (process != null) {
      process.destroy();
      if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
        kill();
      }
    }
  }

  public boolean isAlive() {
    return process != null && process.isAlive();
  }

  /** How many times {@link #start} was called. */
  public int starts() {
    return starts;
  }

  /** What the child has logged since it was first started. */
  public String log() {
    return readLogFrom(0);
  }

  public Path logFile() {
    return logFile;
  }

  /** Kills the child if it still runs: a test's clean-up. */
  @Override
  public void close() {
    try {
      kill();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private List<String> javaCommand(String classpath) {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return Stream.of(List.of(java), jvmOptions, List.of("-cp", classpath, mainClass), arguments)
        .flatMap(List::stream).toList();
  }

  private boolean loggedSince(long offset, String text) {
    return readLogFrom(offset).contains(text);
  }

  private String logTail() {
    String log = readLogFrom(0);
    return log.substring(Math.max(0, log.length() - LOG_TAIL_CHARS));
  }

  private String readLogFrom(long offset) {
    try {
      byte[] bytes = Files.exists(logFile) ? Files.readAllBytes(logFile) : new byte[0];
      int from = (int) Math.min(offset, bytes.length);
      return new String(bytes, from, bytes.length - from, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + logFile, e);
    }
  }
}
