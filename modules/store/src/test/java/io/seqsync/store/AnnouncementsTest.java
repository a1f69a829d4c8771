package io.seqsync.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class AnnouncementsTest {
  @Test
  void outcomesSurviveTheirTextForm() {
    List<Outcome> outcomes = List.of(
        Outcome.appended("cmd-1", "d:1:2", 7, 9_007_199_254_740_993L, 1_764_410_000_123L),
        Outcome.applied("cmd-2", "g:team", 5),
        Outcome.rejected("cmd-3", "d:1:2", "NO_SUCH_MESSAGE: no message at seq 9"));

    assertThat(Announcements.decode(Announcements.encode(outcomes))).isEqualTo(outcomes);
  }

  @Test
  void aReasonCannotBreakTheLineFormat() {
    Outcome rejected = Outcome.rejected("cmd-3", "d:1:2", "two\tfields\nand a line");

    assertThat(Announcements.decode(Announcements.encode(List.of(rejected))))
        .containsExactly(Outcome.rejected("cmd-3", "d:1:2", "two fields and a line"));
  }

  @Test
  void anEarlierVersionsLineWithoutCreateTimeReadsAsUnknown() {
    assertThat(Announcements.decode("APPENDED\tcmd-1\td:1:2\t7\t99\t\n"))
        .containsExactly(Outcome.appended("cmd-1", "d:1:2", 7, 99, 0));
    assertThat(Announcements.decode("REJECTED\tcmd-3\td:1:2\t0\t0\tNOT_ALLOWED: not a member\n"))
        .containsExactly(Outcome.rejected("cmd-3", "d:1:2", "NOT_ALLOWED: not a member"));
  }

  @Test
  void malformedLinesAreSkipped() {
    assertThat(Announcements.decode("garbage\nAPPLIED\tcmd-2\tg:team\t5\t0\t0\t\n"))
        .containsExactly(Outcome.applied("cmd-2", "g:team", 5));
  }
}
