package io.seqsync.bench.restart;

import io.seqsync.bench.BenchSupport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One seqsync as {@code scripts/run} starts it: the app jar with {@code @scripts/jvm.options} in a
 * process of its own, with its environment (data directory, ports, servers). Killed with SIGKILL
 * (no shutdown hook: its embedded PostgreSQL and Redis are left running, as after a crash) or
 * stopped with SIGTERM. Its output goes to a log file.
 */
final class AppProcess {
  private final Path appJar;
  private final Map<String, String> environment;
  private final Path logFile;
  private Process process;

  AppProcess(Path appJar, Map<String, String> environment, Path logFile) {
    this.appJar = appJar;
    this.environment = Map.copyOf(environment);
    this.logFile = logFile;
  }

  /** Starts the process and returns at once: the caller measures when it answers. */
  void start() {
    List<String> command = new ArrayList<>(List.of("java", "@scripts/jvm.options", "-Xmx2g"));
    // e.g. -Dlogback.configurationFile=... for Kafka's own start-up lines (scripts/bench-restart: BENCH_APP_JAVA_OPTS).
    String extra = System.getProperty("bench.app-java-opts", "").trim();
    if (!extra.isEmpty()) {
      command.addAll(List.of(extra.split("\\s+")));
    }
    command.addAll(List.of("-jar", appJar.toString()));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
    builder.environment().putAll(environment);
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + command, e);
    }
  }

  boolean alive() {
    return process != null && process.isAlive();
  }

  /** SIGKILL, and waits until the process is gone. */
  void kill() {
    process.destroyForcibly();
    awaitExit(30);
  }

  /** SIGTERM (the app stops its servers), SIGKILL after 90 s. */
  void stop() {
    if (alive()) {
      process.destroy();
      if (!awaitExit(90)) {
        kill();
      }
    }
  }

  private boolean awaitExit(int seconds) {
    try {
      return process.waitFor(seconds, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  /** A port free now, for a server the app is told to listen on. */
  static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void pause(long millis) {
    BenchSupport.sleep(millis);
  }
}
