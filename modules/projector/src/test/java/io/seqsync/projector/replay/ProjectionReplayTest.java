package io.seqsync.projector.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** When the event log cannot rebuild the projection, a replay must refuse before it empties anything. */
class ProjectionReplayTest {
  @Test
  void aLogThatStillStartsAtZeroCanRebuild() {
    assertThat(ProjectionReplay.problemWithLog(Map.of(0, 0L, 1, 0L), Map.of(0, 40L, 1, 0L), 19)).isEmpty();
    assertThat(ProjectionReplay.problemWithLog(Map.of(0, 0L), Map.of(0, 0L), 0)).as("nothing on either side").isEmpty();
  }

  @Test
  void aLogWhoseBeginningWasDeletedCannot() {
    assertThat(ProjectionReplay.problemWithLog(Map.of(0, 0L, 1, 12L, 2, 3L), Map.of(0, 40L, 1, 50L, 2, 9L), 19))
        .hasValueSatisfying(problem -> assertThat(problem).contains("partitions [1, 2]"));
  }

  @Test
  void anEmptyLogCannotWhilePostgresHoldsMessages() {
    assertThat(ProjectionReplay.problemWithLog(Map.of(0, 0L), Map.of(0, 0L), 19))
        .hasValueSatisfying(problem -> assertThat(problem).contains("holds 19 messages"));
  }
}
