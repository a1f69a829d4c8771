package io.seqsync.bench.send;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class SendBenchmarkOptionsTest {
  // Negatable options true by default: picocli reads the annotation's default, not the field's.
  @Test
  void negatedOptionsTurnOff() {
    SendBenchmark defaults = new SendBenchmark();
    new CommandLine(defaults).parseArgs();
    SendBenchmark bench = new SendBenchmark();
    new CommandLine(bench).parseArgs("--no-reference", "--no-stop-when-saturated", "--encryption=on,off");
    assertThat(List.of(defaults.reference, defaults.stopWhenSaturated, bench.reference, bench.stopWhenSaturated))
        .containsExactly(true, true, false, false);
    assertThat(bench.encryption).containsExactly("on", "off");
  }
}
