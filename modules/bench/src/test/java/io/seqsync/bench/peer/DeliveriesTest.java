package io.seqsync.bench.peer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** How the receiver's arrivals are counted: copies, redeliveries, order, latency. */
class DeliveriesTest {
  @Test
  void anotherStoredCopyIsADuplicateTheSameCopyAgainIsNot() {
    Deliveries deliveries = Deliveries.open("t1", 4, 2);
    try {
      Deliveries.arrived("t1-0", "d:1:1000#1", 1, 10);
      Deliveries.arrived("t1-0", "d:1:1000#1", 1, 20); // pushed, then fetched: one message
      Deliveries.arrived("t1-2", "d:1:1000#2", 2, 30);
      Deliveries.arrived("t1-2", "d:1:1000#3", 3, 40); // stored twice: a duplicate
      Deliveries.arrived("t1-2", "d:1:1000#3", 3, 50);
      assertThat(deliveries.receivedCount(0, 4)).isEqualTo(2);
      assertThat(deliveries.duplicates()).isEqualTo(1);
      assertThat(deliveries.redeliveries()).isEqualTo(2);
      assertThat(deliveries.received(1)).isFalse();
    } finally {
      deliveries.close();
    }
  }

  @Test
  void aMessageReadAfterOneSentLaterInItsConversationIsOutOfOrder() {
    Deliveries deliveries = Deliveries.open("t2", 6, 2);
    try {
      // conversation 0: messages 0, 2, 4; read as 0, 4, 2
      Deliveries.arrived("t2-0", "a", 1, 1);
      Deliveries.arrived("t2-4", "b", 2, 2);
      Deliveries.arrived("t2-2", "c", 3, 3);
      // conversation 1: messages 1, 3, 5 in order
      Deliveries.arrived("t2-1", "d", 1, 1);
      Deliveries.arrived("t2-3", "e", 2, 2);
      Deliveries.arrived("t2-5", "f", 3, 3);
      assertThat(deliveries.outOfOrder()).isEqualTo(1);
    } finally {
      deliveries.close();
    }
  }

  @Test
  void latencyRunsFromTheDueTimeAndNamesOfNoOpenPhaseAreCountedApart() {
    Deliveries deliveries = Deliveries.open("t3", 2, 1);
    int foreign = Deliveries.foreign();
    try {
      deliveries.dueNanos[0] = 1_000_000;
      deliveries.dueNanos[1] = 2_000_000;
      Deliveries.arrived("t3-0", "a", 1, 6_000_000);
      Deliveries.arrived("t3-7", "b", 2, 7_000_000);
      Deliveries.arrived("closed-0", "c", 1, 7_000_000);
      Deliveries.arrived(null, "d", 1, 7_000_000);
      assertThat(deliveries.latencies(0, 2).getMaxValue()).isCloseTo(5_000L, org.assertj.core.api.Assertions.within(5L));
      assertThat(deliveries.latencies(0, 2).getTotalCount()).isEqualTo(1);
      assertThat(deliveries.arrivedBetween(0, 6_000_001)).isEqualTo(1);
      assertThat(Deliveries.foreign() - foreign).isEqualTo(3);
    } finally {
      deliveries.close();
    }
  }
}
