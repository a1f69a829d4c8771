package io.seqsync.bench.http;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The HTTP fetch pass again with wrk (a C load generator in its own process; Debian's package
 * {@code wrk}) instead of the JDK's HttpClient in the app's JVM: the same 64 connections, the same
 * random (conversation, after) choice (4,096 pages per wrk thread, in turn). The JDK client takes
 * about 0.08 ms of CPU per page on the cores the server uses, wrk 0.02-0.03 ms (measured): closer
 * to a client on another machine. Its CPU counts under "other processes".
 */
final class WrkPass {
  private static final String COMMAND = "wrk";

  private WrkPass() {}

  /** Whether wrk can be run here. */
  static boolean available() {
    try {
      Process process = new ProcessBuilder(COMMAND, "--version").redirectErrorStream(true).start();
      process.getInputStream().readAllBytes();
      process.waitFor(10, TimeUnit.SECONDS);
      return true;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** A warm-up run, then the measured one; the CPU and PostgreSQL meters span the measured run. */
  static FetchBenchmark.Result run(String label, int port, List<String> convIds, List<String> tokens, int messages,
      int clients, int warmupSeconds, int durationSeconds, CpuMeter cpu, PgStats pg) {
    try {
      Path script = Files.createTempFile("seqsync-fetch-", ".lua");
      try {
        Files.writeString(script, script(convIds, tokens, messages), StandardCharsets.UTF_8);
        String url = "http://127.0.0.1:" + port;
        if (warmupSeconds > 0) {
          wrk(script, url, clients, warmupSeconds);
        }
        CpuMeter.Mark cpuMark = cpu.mark();
        PgStats.Snapshot pgMark = pg.snapshot();
        Map<String, String> summary = wrk(script, url, clients, durationSeconds);
        CpuMeter.Usage usage = cpu.since(cpuMark);
        PgStats.Delta pgDelta = pg.since(pgMark);
        long pages = Long.parseLong(summary.get("requests"));
        long failures = Long.parseLong(summary.get("failures"));
        double seconds = Long.parseLong(summary.get("duration_us")) / 1e6;
        FetchBenchmark.Latency latency = new FetchBenchmark.Latency(Long.parseLong(summary.get("p50")),
            Long.parseLong(summary.get("p90")), Long.parseLong(summary.get("p99")), Long.parseLong(summary.get("max")));
        String firstFailure = failures == 0 ? null : "wrk: " + summary.get("errors");
        return new FetchBenchmark.Result(label, clients, seconds, pages - failures, latency, failures, firstFailure, usage,
            pgDelta);
      } finally {
        Files.deleteIfExists(script);
      }
    } catch (IOException e) {
      throw new IllegalStateException("wrk failed: " + e.getMessage(), e);
    }
  }

  private static Map<String, String> wrk(Path script, String url, int clients, int seconds) throws IOException {
    List<String> command = List.of(COMMAND, "-t2", "-c" + clients, "-d" + seconds + "s", "--timeout", "30s",
        "-s", script.toString(), url);
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    try {
      if (!process.waitFor(seconds + 60L, TimeUnit.SECONDS) || process.exitValue() != 0) {
        process.destroyForcibly();
        throw new IOException("wrk did not finish cleanly: " + output);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
    Map<String, String> summary = new HashMap<>();
    for (String line : output.split("\n")) {
      if (line.startsWith("seqsync ")) {
        String[] parts = line.split(" ", 3);
        summary.put(parts[1], parts.length > 2 ? parts[2].strip() : "");
      }
    }
    if (!summary.containsKey("requests")) {
      throw new IOException("no summary from wrk: " + output);
    }
    return summary;
  }

  /**
   * The Lua script: random pages, each with its user's token; an answer other than 2xx is a failure
   * (the bodies are checked in the JDK client's passes: checking them in Lua cost wrk more CPU than
   * the JDK client takes); the summary printed as {@code seqsync name value} lines.
   */
  private static String script(List<String> convIds, List<String> tokens, int messages) {
    StringBuilder lua = new StringBuilder();
    lua.append("local convs = {");
    convIds.forEach(conv -> lua.append('"').append(conv).append("\","));
    lua.append("}\nlocal tokens = {");
    tokens.forEach(token -> lua.append('"').append(token).append("\","));
    lua.append("}\n");
    lua.append("local page = ").append(FetchBenchmark.PAGE).append("\nlocal messages = ").append(messages).append('\n');
    lua.append("""
        local counter = 0
        function setup(thread)
          counter = counter + 1
          thread:set("seed", counter)
        end
        -- The requests are made once per thread: Lua building each one as it goes would cost wrk
        -- more CPU per page than the JDK's client.
        local requests = {}
        local next = 0
        function init(args)
          math.randomseed(os.time() * 1000 + seed)
          for i = 1, 4096 do
            local k = math.random(1, #convs)
            local after = math.random(0, messages - page)
            requests[i] = wrk.format("GET", "/v1/conversations/" .. convs[k] .. "/messages?after=" .. after .. "&limit=" .. page,
              { ["Authorization"] = "Bearer " .. tokens[k] })
          end
        end
        function request()
          next = next % #requests + 1
          return requests[next]
        end
        function done(summary, latency, requests)
          local e = summary.errors
          local socket = e.connect + e.read + e.write + e.timeout
          print(string.format("seqsync requests %d", summary.requests))
          print(string.format("seqsync duration_us %d", summary.duration))
          print(string.format("seqsync failures %d", e.status + socket))
          print(string.format("seqsync errors non-2xx %d, socket %d", e.status, socket))
          print(string.format("seqsync p50 %d", latency:percentile(50)))
          print(string.format("seqsync p90 %d", latency:percentile(90)))
          print(string.format("seqsync p99 %d", latency:percentile(99)))
          print(string.format("seqsync max %d", latency.max))
        end
        """);
    return lua.toString();
  }
}
