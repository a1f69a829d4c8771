package io.seqsync.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/** The benchmark's table, in Markdown so that it can be pasted into docs/benchmarks.md as is. */
final class Report {
  private Report() {}

  static void print(PrintStream out, BenchOptions options, CommandLoader.Loaded loaded, List<SequencerBenchmark.Run> runs) {
    out.println();
    out.println("| repeat | order | app | records | start→RUNNING s | start→committed s | records/s | records/s after RUNNING "
        + "| app threads CPU s | JVM CPU s | JVM CPU µs/record | other processes CPU s |");
    out.println("|---:|:---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (SequencerBenchmark.Run run : runs) {
      BenchmarkRunner.Measured m = run.measured();
      out.printf("| %s | %s | %s | %,d | %.2f | %.2f | %,.0f | %,.0f | %.2f | %.2f | %.1f | %s |%n",
          run.repeat(), run.order(), run.app().label, m.records(), m.toRunningNanos() / 1e9, m.toCommittedNanos() / 1e9,
          m.recordsPerSecond(), m.recordsPerSecondAfterRunning(), m.appThreadCpuNanos() / 1e9, m.processCpuNanos() / 1e9,
          m.processCpuNanos() / 1e3 / m.records(),
          m.otherProcessesCpuNanos() < 0 ? "n/a" : String.format("%.2f", m.otherProcessesCpuNanos() / 1e9));
    }

    Map<SequencerBenchmark.App, List<SequencerBenchmark.Run>> byApp = new EnumMap<>(SequencerBenchmark.App.class);
    runs.forEach(run -> byApp.computeIfAbsent(run.app(), app -> new ArrayList<>()).add(run));
    List<SequencerBenchmark.Run> base = byApp.get(SequencerBenchmark.App.PASSTHROUGH);
    out.println();
    out.println("| | median records/s | each repeat |");
    out.println("|---|---:|---|");
    out.printf("| raw producer (idempotent, acks=all; one load of %,d) | %,.0f | — |%n", loaded.records(), loaded.recordsPerSecond());
    for (String phase : List.of("start→committed", "RUNNING→committed")) {
      ToDoubleFunction<BenchmarkRunner.Measured> rate = phase.startsWith("start")
          ? BenchmarkRunner.Measured::recordsPerSecond : BenchmarkRunner.Measured::recordsPerSecondAfterRunning;
      byApp.forEach((app, appRuns) -> row(out, app.label + ", exactly_once_v2 (" + phase + ")", appRuns, rate));
      byApp.forEach((app, appRuns) -> {
        if (app != SequencerBenchmark.App.PASSTHROUGH) {
          String label = app.label + " / passthrough (" + phase + ")";
          ratio(out, app == SequencerBenchmark.App.SEQUENCER && phase.startsWith("start") ? "**" + label + "**" : label,
              base, appRuns, rate);
        }
      });
    }
    out.println();
    out.printf("Goal: sequencer ≥ 70%% of passthrough. %d stream thread(s), %d partitions, commit interval %d ms.%n",
        options.threads(), options.partitions(), options.commitIntervalMs());
    out.println();
    out.println("Read-back after each timed run (read_committed, up to the output's last stable offsets seen when its timing stopped):");
    for (SequencerBenchmark.Run run : runs) {
      out.printf("- repeat %s %s: %s%n", run.repeat(), run.app().label, run.check());
    }
  }

  private static void row(PrintStream out, String label, List<SequencerBenchmark.Run> runs,
      ToDoubleFunction<BenchmarkRunner.Measured> rate) {
    double[] rates = runs.stream().mapToDouble(r -> rate.applyAsDouble(r.measured())).toArray();
    out.printf("| %s | %,.0f | %s |%n", label, median(rates),
        java.util.Arrays.stream(rates).mapToObj(r -> String.format("%,.0f", r)).collect(Collectors.joining(", ")));
  }

  /** The ratio of the medians, then the ratio within each repeat (same repeat, adjacent runs). */
  private static void ratio(PrintStream out, String label, List<SequencerBenchmark.Run> passthrough,
      List<SequencerBenchmark.Run> sequencer, ToDoubleFunction<BenchmarkRunner.Measured> rate) {
    double[] p = passthrough.stream().mapToDouble(r -> rate.applyAsDouble(r.measured())).toArray();
    double[] s = sequencer.stream().mapToDouble(r -> rate.applyAsDouble(r.measured())).toArray();
    StringBuilder each = new StringBuilder();
    for (int i = 0; i < Math.min(p.length, s.length); i++) {
      each.append(i == 0 ? "" : ", ").append(String.format("%.1f %%", 100 * s[i] / p[i]));
    }
    out.printf("| %s | %.1f %% | %s |%n", label, 100 * median(s) / median(p), each);
  }

  static double median(double[] values) {
    double[] sorted = values.clone();
    java.util.Arrays.sort(sorted);
    int n = sorted.length;
    return n == 0 ? Double.NaN : n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }
}
