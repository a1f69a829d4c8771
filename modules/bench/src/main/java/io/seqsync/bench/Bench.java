package io.seqsync.bench;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import java.util.LinkedHashMap;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * What every benchmark's command line shares (picocli): where its result goes, how long it waits
 * for a quiet machine; and the run around its measurement: the result's header filled in, the
 * rows collected, the file written, the exit status.
 */
public abstract class Bench implements Callable<Integer> {
  @Option(names = "--results-dir", description = "where the JSON result goes (default: ${DEFAULT-VALUE})")
  Path resultsDir = Path.of("docs/benchmark-results");

  @Option(names = "--quiet-wait-s", description = "before measuring, wait up to this long for other processes to use"
      + " under 1/4 core (0: never; default: ${DEFAULT-VALUE})")
  protected long quietWaitSeconds = 0;

  @Spec
  CommandSpec spec;

  /** The result's rows; a benchmark adds one per phase it measured. */
  protected final List<Object> rows = new ArrayList<>();

  /** The result's name, the command's without "bench-": the file is {@code name-time.json}. */
  private String name() {
    return spec.name().replaceFirst("^bench-", "");
  }

  /** Measures, adding rows; false when a check failed (exit status 1). */
  protected abstract boolean measure() throws Exception;

  @Override
  public final Integer call() throws Exception {
    BenchSupport.quietLogs();
    if (quietWaitSeconds > 0) {
      Cpu.awaitQuiet(0.25, quietWaitSeconds);
    }
    Instant started = Instant.now();
    String loadBefore = BenchSupport.loadAverage();
    boolean ok = measure();
    new Result(name(), started.toString(), (System.currentTimeMillis() - started.toEpochMilli()) / 1e3,
        Runtime.getRuntime().availableProcessors(), loadBefore, BenchSupport.loadAverage(), options(), rows)
        .write(resultsDir);
    return ok ? 0 : 1;
  }

  private Map<String, Object> options() {
    Map<String, Object> options = new LinkedHashMap<>();
    spec.options().stream().filter(option -> !option.usageHelp() && !option.versionHelp())
        .forEach(option -> options.put(option.longestName().replaceFirst("^--", ""),
            option.getValue() instanceof Path path ? path.toString() : option.getValue()));
    return options;
  }

  /** Parses {@code args} into {@code bench}, runs it, exits (Kafka leaves non-daemon threads behind). */
  public static void main(Bench bench, String[] args) {
    System.exit(new CommandLine(bench).execute(args));
  }
}
