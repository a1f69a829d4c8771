package io.seqsync.projector;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqsync.events.Announcements;
import io.seqsync.events.ReplyRoute;
import io.seqsync.events.model.StoredOutcome;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A batch's outcomes go to the partitions their waiting instances read: a plain function, no broker. */
class AnnouncementRoutesTest {
  @Test
  void eachOutcomeGoesToThePartitionItsCommandNamesAndTheRestToAny() {
    StoredOutcome toTwo = Announcements.appended(ReplyRoute.routed(2, "a"), "d:1:2", 1, 10, 1L);
    StoredOutcome toZero = Announcements.applied(ReplyRoute.routed(0, "b"), "d:1:3", 4);
    StoredOutcome alsoToTwo = Announcements.rejected(ReplyRoute.routed(2, "c"), "d:1:4", "not_a_member");
    StoredOutcome nobodys = Announcements.applied("7f0c2a9e-5d1b-4c3e-9a77-0d3c2e1f4b5a", "d:1:2", 2);
    StoredOutcome pastTheLast = Announcements.applied(ReplyRoute.routed(9, "d"), "d:1:2", 3);

    Map<Integer, List<StoredOutcome>> routed =
        AnnouncementPublisher.byPartition(List.of(toTwo, toZero, nobodys, alsoToTwo, pastTheLast), 3, false);

    assertThat(routed).containsOnlyKeys(2, 0, AnnouncementPublisher.UNROUTED);
    assertThat(routed.get(2)).containsExactly(toTwo, alsoToTwo);
    assertThat(routed.get(0)).containsExactly(toZero);
    assertThat(routed.get(AnnouncementPublisher.UNROUTED)).containsExactly(nobodys, pastTheLast);
  }

  @Test
  void withReadReplicasEveryInstanceHearsEachConversationsLatestCommitOfTheBatch() {
    StoredOutcome first = Announcements.appended(ReplyRoute.routed(2, "a"), "d:1:2", 1, 10, 1L);
    StoredOutcome toZero = Announcements.applied(ReplyRoute.routed(0, "b"), "d:1:3", 4);
    StoredOutcome second = Announcements.appended(ReplyRoute.routed(1, "c"), "d:1:2", 2, 11, 2L);
    StoredOutcome other = Announcements.appended(ReplyRoute.routed(2, "d"), "d:1:5", 7, 12, 3L);

    Map<Integer, List<StoredOutcome>> routed =
        AnnouncementPublisher.byPartition(List.of(first, toZero, second, other), 3, true);

    assertThat(routed).containsOnlyKeys(0, 1, 2);
    assertThat(routed.get(0)).as("its own, then each conversation's watermark").containsExactly(toZero, second, other);
    assertThat(routed.get(1)).containsExactly(second, other);
    assertThat(routed.get(2)).as("d:1:2's first message is not repeated: its second is the watermark")
        .containsExactly(first, other, second);
  }

  @Test
  void aRouteIsReadBackFromTheCommandIdAndNothingElseLooksLikeOne() {
    assertThat(ReplyRoute.partition(ReplyRoute.routed(12, "x-y"))).hasValue(12);
    assertThat(ReplyRoute.partition("7f0c2a9e-5d1b-4c3e-9a77-0d3c2e1f4b5a")).isEmpty();
    assertThat(ReplyRoute.partition("r.x")).isEmpty();
    assertThat(ReplyRoute.partition("rx1.y")).isEmpty();
    assertThat(ReplyRoute.partition("r99999999.y")).isEmpty();
  }
}
