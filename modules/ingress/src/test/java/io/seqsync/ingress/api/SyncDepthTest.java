package io.seqsync.ingress.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seqsync.ingress.auth.Caller;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SyncDepthTest {
  private static final Caller PHONE = new Caller(1, "phone");
  private static final Caller LAPTOP = new Caller(1, "laptop");

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final AtomicLong clock = new AtomicLong();
  private final SyncDepth depth = new SyncDepth(registry, clock::get);

  @Test
  void aCatchUpIsThePagesFromItsStartToThePageWithoutMore() {
    depth.served(PHONE, "d:1:2", true, 0, true, 50);
    depth.served(PHONE, "d:1:2", false, 50, true, 100);
    depth.served(PHONE, "d:1:2", false, 100, false, 120);
    depth.served(PHONE, "d:1:2", false, 120, false, 120); // polling when caught up: a catch-up of one page
    assertRecorded(2, 4, 3); // 3 and 1
    assertThat(depth.openCount()).isZero();
  }

  @Test
  void aPageThatDoesNotContinueStartsAnew() {
    depth.served(PHONE, "d:1:2", false, 0, true, 50);
    depth.served(PHONE, "d:1:2", false, 70, true, 120); // skipped ahead: the first catch-up is given up
    depth.served(PHONE, "d:1:2", false, 120, false, 130);
    depth.served(PHONE, "d:1:2", false, 130, true, 180);
    depth.served(PHONE, "d:1:2", true, 180, false, 190); // from the cursor: always a start
    assertRecorded(2, 3, 2); // 2 and 1
  }

  @Test
  void devicesAndConversationsCatchUpApart() {
    depth.served(PHONE, "d:1:2", true, 0, true, 50);
    depth.served(LAPTOP, "d:1:2", true, 0, true, 50);
    depth.served(PHONE, "d:1:3", true, 0, true, 50);
    depth.served(PHONE, "d:1:2", false, 50, false, 60);
    depth.served(LAPTOP, "d:1:2", false, 50, true, 100);
    depth.served(LAPTOP, "d:1:2", false, 100, false, 101);
    assertRecorded(2, 5, 3); // 2 and 3
    assertThat(depth.openCount()).isEqualTo(1);
  }

  @Test
  void unfinishedCatchUpsAreForgottenWhenTooManyAreOpen() {
    for (int user = 1; user <= SyncDepth.MAX_OPEN; user++) {
      depth.served(new Caller(user, "phone"), "d:1:2", true, 0, true, 50);
    }
    Caller late = new Caller(SyncDepth.MAX_OPEN + 1L, "phone");
    depth.served(late, "d:1:2", true, 0, true, 50);
    assertThat(depth.openCount()).as("full: not followed").isEqualTo(SyncDepth.MAX_OPEN);

    clock.addAndGet(SyncDepth.ABANDONED.toNanos() + 1);
    depth.served(late, "d:1:2", true, 0, true, 50);
    depth.served(late, "d:1:2", false, 50, false, 60);
    assertThat(depth.openCount()).as("the abandoned ones forgotten").isZero();
    assertRecorded(1, 2, 2);
  }

  private void assertRecorded(long count, double sum, double max) {
    DistributionSummary summary = registry.get(SyncDepth.METRIC).summary();
    assertThat(summary.count()).as("catch-ups").isEqualTo(count);
    assertThat(summary.totalAmount()).as("pages in all").isEqualTo(sum);
    assertThat(summary.max()).as("the deepest").isEqualTo(max);
  }
}
