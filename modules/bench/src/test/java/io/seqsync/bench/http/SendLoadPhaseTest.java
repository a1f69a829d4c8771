package io.seqsync.bench.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SendLoadPhaseTest {

  @Test
  void p99PerSecondTakesEachSecondOfTheMeasuredWindowOnItsOwn() {
    // 10 sends a second for 4 s, the first second warm-up; a 202 and the warm-up do not count.
    SendLoad.Phase phase = new SendLoad.Phase("t", 10, 10, 40, 3);
    double start = 1_800_000_000_000.0;
    for (int i = 0; i < phase.total; i++) {
      phase.dueMs[i] = start + i * 100.0;
      phase.status[i] = 200;
      phase.latencyMicros[i] = switch (i / 10) {
        case 0 -> 900_000; // warm-up
        case 1 -> 10_000;
        case 2 -> 20_000;
        default -> i == 35 ? 500_000 : 30_000;
      };
    }
    phase.status[12] = 202;
    phase.latencyMicros[12] = 2_000_000;

    Samples perSecond = phase.p99PerSecond();

    assertThat(perSecond.size()).isEqualTo(3);
    assertThat(perSecond.percentile(50)).isEqualTo(20_000);
    assertThat(perSecond.max()).isEqualTo(500_000);
  }
}
