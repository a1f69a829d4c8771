package io.seqsync.store.replica;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class CommittedSeqsTest {
  private final AtomicLong now = new AtomicLong(1_000);

  @Test
  void keepsTheHighestSeqAnnouncedPerConversation() {
    CommittedSeqs seqs = new CommittedSeqs(10, now::get);
    seqs.committed("d:1:2", 5);
    seqs.committed("d:1:2", 3); // announcements of two partitions' batches may come out of order
    assertThat(seqs.seq("d:1:2")).isEqualTo(5);
    assertThat(seqs.seq("d:1:3")).isZero();
    assertThat(seqs.horizon()).isEqualTo(1_000);
  }

  @Test
  void whenFullItForgetsEverythingAndMovesItsHorizonToNow() {
    CommittedSeqs seqs = new CommittedSeqs(2, now::get);
    seqs.committed("d:1:2", 5);
    seqs.committed("d:1:3", 7);
    now.set(2_000);
    seqs.committed("d:1:4", 1);
    assertThat(seqs.seq("d:1:2")).isZero();
    assertThat(seqs.seq("d:1:4")).isEqualTo(1);
    assertThat(seqs.horizon()).as("a replica must now hold what the primary had at the reset").isEqualTo(2_000);
  }
}
