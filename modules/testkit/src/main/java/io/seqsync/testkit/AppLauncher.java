package io.seqsync.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * seqsync as {@code scripts/run} starts it: the app jar with {@code @scripts/jvm.options} in a
 * process of its own, configured by its environment ({@code SEQSYNC_*}), its output appended to a
 * log file. Killed with SIGKILL (no shutdown hook runs: a crash) or stopped with SIGTERM. Extra
 * JVM options come from the system property {@code bench.app-java-opts} (a CDS archive, a profiler).
 */
public final class AppLauncher implements AutoCloseable {
  private final Path appJar;
  private final String heap;
  private final Map<String, String> environment;
  private final Path logFile;
  private volatile Process process;

  public AppLauncher(Path appJar, String heap, Map<String, String> environment, Path logFile) {
    this.appJar = appJar;
    this.heap = heap;
    this.environment = Map.copyOf(environment);
    this.logFile = logFile;
  }

  /** Starts the process and returns at once (see {@link #awaitHealthy}). */
  public AppLauncher start() {
    List<String> command = new ArrayList<>(List.of("java", "@scripts/jvm.options", "-Xmx" + heap));
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
    return this;
  }

  /** Waits until {@code /health} on {@code port} answers 200 and its body passes {@code ready}. */
  public void awaitHealthy(int port, Duration timeout, Predicate<ApiClient.Response> ready) {
    ApiClient api = new ApiClient(HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build(),
        "http://127.0.0.1:" + port, null, Duration.ofSeconds(2));
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (!alive()) {
        throw new IllegalStateException("seqsync exited with " + process.exitValue() + "; see " + logFile);
      }
      try {
        ApiClient.Response health = api.get("/health");
        if (health.status() == 200 && ready.test(health)) {
          return;
        }
      } catch (RuntimeException notListening) {
        // not up yet
      }
      pause(100);
    }
    throw new IllegalStateException("no /health 200 on port " + port + " within " + timeout + "; see " + logFile);
  }

  public void awaitHealthy(int port, Duration timeout) {
    awaitHealthy(port, timeout, health -> true);
  }

  public boolean alive() {
    return process != null && process.isAlive();
  }

  public long pid() {
    return process == null ? -1 : process.pid();
  }

  /** SIGKILL, and waits until the process is gone. */
  public void kill() {
    process.destroyForcibly();
    awaitExit(30);
  }

  /** SIGTERM (the app stops its servers), SIGKILL after 90 s. */
  public void stop() {
    if (alive()) {
      process.destroy();
      if (!awaitExit(90)) {
        kill();
      }
    }
  }

  @Override
  public void close() {
    stop();
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
  public static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
