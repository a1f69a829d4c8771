package io.seqsync.bench.send;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class SendBenchmarkOptionsTest {
  // Negatable options true by default: picocli reads the annotation's default, not the field's.
  @Test
  void negatedOptionsTurnOff() {
    SendBenchmark bench = new SendBenchmark();
    new CommandLine(bench).parseArgs("--no-reference", "--no-stop-when-saturated", "--encryption=on,off");
    assertThat(bench.reference).isFalse();
    assertThat(bench.stopWhenSaturated).isFalse();
    assertThat(bench.encryption).isEqualTo(List.of("on", "off"));
  }

  @Test
  void defaultsAreOn() {
    SendBenchmark bench = new SendBenchmark();
    new CommandLine(bench).parseArgs();
    assertThat(bench.reference).isTrue();
    assertThat(bench.stopWhenSaturated).isTrue();
    assertThat(bench.encryption).isEqualTo(List.of("on"));
  }
}
