package io.seqsync.events;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqsync.events.model.Announcement;
import io.seqsync.events.model.OutcomeKind;
import io.seqsync.events.model.StoredOutcome;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class AnnouncementsTest {
  @Test
  void outcomesSurviveTheirRecordForm() {
    List<StoredOutcome> outcomes = List.of(
        Announcements.appended("cmd-1", "d:1:2", 7, 9_007_199_254_740_993L, 1_764_410_000_123L),
        Announcements.applied("cmd-2", "g:team", 5),
        Announcements.rejected("cmd-3", "d:1:2", "NO_SUCH_MESSAGE: no message at seq 9\twith\nany text"));

    assertThat(Announcements.decode(Announcements.encode(outcomes))).isEqualTo(outcomes);
  }

  @Test
  void aRecordThatDoesNotDecodeAnnouncesNothing() {
    assertThat(Announcements.decode("APPENDED\tcmd-1\td:1:2\t7\t99\t\n".getBytes(StandardCharsets.UTF_8))).isEmpty();
    assertThat(Announcements.decode(new byte[0])).isEmpty();
  }

  @Test
  void anOutcomeOfAKindThisVersionDoesNotKnowIsSkipped() {
    byte[] value = EventSerdes.announcement().encode(new Announcement(List.of(
        new StoredOutcome(OutcomeKind.UNKNOWN, "cmd-1", "d:1:2", 1L, 0L, 0L, ""),
        new StoredOutcome(OutcomeKind.APPLIED, "cmd-2", "g:team", 5L, 0L, 0L, ""))));

    assertThat(Announcements.decode(value)).containsExactly(Announcements.applied("cmd-2", "g:team", 5));
  }
}
