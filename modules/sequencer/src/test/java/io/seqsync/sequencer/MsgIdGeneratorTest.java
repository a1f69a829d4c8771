package io.seqsync.sequencer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MsgIdGeneratorTest {
  private static final long NOW = 1_790_000_000_000L;

  @Test
  void idsCarryTheirTimeAndGrowWithIt() {
    MsgIdGenerator generator = new MsgIdGenerator(5, 0);
    long first = generator.next(NOW);
    long later = generator.next(NOW + 1);

    assertThat(MsgIdGenerator.timeOf(first)).isEqualTo(NOW);
    assertThat(later).isGreaterThan(first);
    assertThat(first).isPositive();
  }

  @Test
  void manyIdsInOneMillisecondStayUniqueAndOrdered() {
    MsgIdGenerator generator = new MsgIdGenerator(1, 0);
    Set<Long> seen = new HashSet<>();
    long previous = 0;
    for (int i = 0; i < 10_000; i++) {
      long id = generator.next(NOW);
      assertThat(id).isGreaterThan(previous);
      assertThat(seen.add(id)).isTrue();
      previous = id;
    }
  }

  @Test
  void aClockSteppingBackNeverReissuesAnId() {
    MsgIdGenerator generator = new MsgIdGenerator(1, 0);
    long before = generator.next(NOW);

    long afterStepBack = generator.next(NOW - 60_000);

    assertThat(afterStepBack).isGreaterThan(before);
  }

  @Test
  void aRestartedGeneratorContinuesAfterTheLastIssuedId() {
    long lastIssued = new MsgIdGenerator(3, 0).next(NOW);

    MsgIdGenerator restarted = new MsgIdGenerator(3, lastIssued);

    assertThat(restarted.next(NOW - 5_000)).isGreaterThan(lastIssued);
  }

  @Test
  void partitionsNeverCollide() {
    assertThat(new MsgIdGenerator(1, 0).next(NOW)).isNotEqualTo(new MsgIdGenerator(2, 0).next(NOW));
    assertThatThrownBy(() -> new MsgIdGenerator(MsgIdGenerator.MAX_PARTITIONS, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
