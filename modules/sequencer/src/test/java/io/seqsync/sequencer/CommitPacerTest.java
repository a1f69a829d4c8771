package io.seqsync.sequencer;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CommitPacerTest {
  private final CommitPacer pacer = new CommitPacer(Duration.ofMillis(10));
  private final List<String> asked = new ArrayList<>();

  private void processed(String task, long nowMs) {
    pacer.processed(nowMs, () -> asked.add(task + "@" + nowMs));
  }

  @Test
  void aCommandAfterAQuietSpellCommitsAtOnce() {
    processed("first", 1_000);
    processed("second", 1_010); // the thread processed nothing for an interval: quiet again
    assertThat(asked).containsExactly("first@1000", "second@1010");
  }

  @Test
  void commandsInQuickSuccessionLeaveTheCommitToStreamsTimer() {
    processed("first", 1_000);
    processed("first", 1_003);
    processed("second", 1_009);
    processed("first", 1_018);
    assertThat(asked).containsExactly("first@1000");
  }

  @Test
  void theQuietSpellIsTheThreadsNotTheTasks() {
    processed("first", 1_000);
    processed("second", 1_008);
    // The first task was quiet for 15 ms, but the thread was not.
    processed("first", 1_015);
    assertThat(asked).containsExactly("first@1000");
  }
}
