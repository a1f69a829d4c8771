package io.seqsync.sequencer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MsgIdClockTest {
  private static final long NOW = 1_790_000_000_000L;
  private static final int PARTITION = 4;

  private final List<Long> persisted = new ArrayList<>();

  @Test
  void theBoundIsPersistedBeforeAnyIdAboveItAndOnlyOncePerLease() {
    MsgIdClock clock = new MsgIdClock(PARTITION, 0, persisted::add);
    long ids = 0;
    for (long millis = 0; millis < 10 * MsgIdClock.LEASE_MS; millis += 2) {
      for (int i = 0; i < 5; i++) {
        int persistedBefore = persisted.size();
        long id = clock.next(NOW + millis);
        ids++;
        assertThat(persisted).as("a bound was persisted").isNotEmpty();
        assertThat(id).as("id %d within the bound persisted with or before it", id).isLessThanOrEqualTo(lastPersisted());
        assertThat(persisted.size() - persistedBefore).isLessThanOrEqualTo(1);
      }
    }
    assertThat(ids).isEqualTo(25_000);
    assertThat(persisted).hasSize(10);
  }

  @Test
  void aRestartFromThePersistedBoundNeverReissuesAnIdEvenWithTheClockSteppedBack() {
    MsgIdClock clock = new MsgIdClock(PARTITION, 0, persisted::add);
    long lastIssued = 0;
    for (int i = 0; i < 1_000; i++) {
      lastIssued = clock.next(NOW + i);
    }

    MsgIdClock restarted = new MsgIdClock(PARTITION, lastPersisted(), persisted::add);

    assertThat(restarted.next(NOW - 60_000)).isGreaterThan(lastIssued);
    assertThat(restarted.next(NOW + 5 * MsgIdClock.LEASE_MS)).isGreaterThan(lastIssued);
  }

  @Test
  void aRestartSkipsAtMostOneLeaseOfIds() {
    MsgIdClock clock = new MsgIdClock(PARTITION, 0, persisted::add);
    long first = clock.next(NOW);
    long bound = lastPersisted();

    MsgIdClock restarted = new MsgIdClock(PARTITION, bound, persisted::add);
    long afterRestart = restarted.next(NOW + 1);

    assertThat(afterRestart).isGreaterThan(bound).isGreaterThan(first);
    assertThat(lastPersisted()).as("the next id lies above the old bound: a new one").isGreaterThan(afterRestart);
    assertThat(MsgIdGenerator.timeOf(afterRestart) - NOW).isLessThanOrEqualTo(MsgIdClock.LEASE_MS);
  }

  private long lastPersisted() {
    return persisted.get(persisted.size() - 1);
  }
}
