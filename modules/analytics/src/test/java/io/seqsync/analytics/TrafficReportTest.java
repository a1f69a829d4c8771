package io.seqsync.analytics;

import static io.seqsync.analytics.LogEvents.appended;
import static io.seqsync.analytics.LogEvents.cursor;
import static io.seqsync.analytics.LogEvents.edited;
import static io.seqsync.analytics.LogEvents.draft;
import static io.seqsync.analytics.LogEvents.membership;
import static io.seqsync.analytics.LogEvents.read;
import static io.seqsync.analytics.LogEvents.recall;
import static io.seqsync.analytics.LogEvents.rejected;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.seqsync.events.model.MessageType;
import io.seqsync.events.model.RejectReason;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TrafficReportTest {
  private static final Instant DAY_ONE = Instant.parse("2026-11-30T00:00:00Z");
  private static final Instant MORNING = Instant.parse("2026-11-30T09:15:00Z");
  private static final Instant EVENING = Instant.parse("2026-11-30T21:40:00Z");
  private static final Instant NEXT_DAY = Instant.parse("2026-12-01T08:00:00Z");

  @Test
  void countsEachPeriodsTraffic() {
    TrafficReport report = new TrafficReport(TrafficReport.Period.DAY, Instant.EPOCH);
    report.add(appended("d:1:2", 1, 1, MessageType.TEXT, MORNING));
    report.add(appended("d:1:2", 2, 2, MessageType.IMAGE, MORNING));
    report.add(appended("d:1:2", 3, 1, MessageType.TEXT, EVENING));
    report.add(recall("d:1:2", 4, 1, 3, EVENING));
    report.add(cursor("d:1:2", 2, 4, EVENING));
    report.add(read("d:1:2", 2, 4, EVENING));
    report.add(draft("d:1:2", 1, EVENING));
    report.add(membership("g:team", 1, 3, List.of(1L, 3L), EVENING));
    report.add(rejected("g:team", RejectReason.NOT_ALLOWED, EVENING));
    report.add(rejected("d:1:2", RejectReason.NOT_RECALLABLE, EVENING));
    report.add(rejected("d:1:2", RejectReason.NOT_ALLOWED, EVENING));
    report.add(appended("g:team", 2, 1, MessageType.TEXT, NEXT_DAY));

    assertThat(report.periods()).containsExactly(
        new TrafficReport.PeriodFigures("2026-11-30T00:00:00Z", 5,
            Map.of("IMAGE", 1L, "RECALL", 1L, "SYSTEM", 1L, "TEXT", 2L), 3, 2, 1, 1, 1, 1,
            Map.of("NOT_ALLOWED", 2L, "NOT_RECALLABLE", 1L)),
        new TrafficReport.PeriodFigures("2026-12-01T00:00:00Z", 1, Map.of("TEXT", 1L), 1, 1, 0, 0, 0, 0, Map.of()));
    assertThat(report.seqAnomalyCount()).isZero();
  }

  @Test
  void hoursSplitADay() {
    TrafficReport report = new TrafficReport(TrafficReport.Period.HOUR, Instant.EPOCH);
    report.add(appended("d:1:2", 1, 1, MessageType.TEXT, MORNING));
    report.add(appended("d:1:2", 2, 1, MessageType.TEXT, MORNING.plusSeconds(2700)));
    report.add(appended("d:1:2", 3, 1, MessageType.TEXT, EVENING));
    assertThat(report.periods()).extracting(TrafficReport.PeriodFigures::start, TrafficReport.PeriodFigures::messages)
        .containsExactly(tuple("2026-11-30T09:00:00Z", 1L),
            tuple("2026-11-30T10:00:00Z", 1L),
            tuple("2026-11-30T21:00:00Z", 1L));
  }

  @Test
  void eventsBeforeSinceAreNotCountedButSeedTheSeqAudit() {
    TrafficReport report = new TrafficReport(TrafficReport.Period.DAY, MORNING);
    report.add(appended("d:1:2", 7, 1, MessageType.TEXT, DAY_ONE));
    report.add(cursor("d:1:2", 2, 7, DAY_ONE));
    report.add(appended("d:1:2", 8, 1, MessageType.TEXT, MORNING));
    assertThat(report.periods()).extracting(TrafficReport.PeriodFigures::messages, TrafficReport.PeriodFigures::deliveryCursorMoves)
        .containsExactly(tuple(1L, 0L));
    assertThat(report.seqAnomalyCount()).isZero();
  }

  @Test
  void reportsEveryMessageThatDoesNotFollowItsConversationsLastSeq() {
    TrafficReport report = new TrafficReport(TrafficReport.Period.DAY, Instant.EPOCH);
    report.add(appended("d:1:2", 1, 1, MessageType.TEXT, MORNING));
    report.add(appended("g:team", 5, 1, MessageType.TEXT, MORNING)); // a conversation's first message: any seq
    report.add(appended("d:1:2", 3, 1, MessageType.TEXT, MORNING)); // a gap
    report.add(recall("d:1:2", 3, 1, 1, MORNING)); // a repeat
    report.add(appended("g:team", 6, 1, MessageType.TEXT, MORNING));
    report.add(membership("g:team", 4, 1, List.of(2L), MORNING)); // backwards
    report.add(cursor("d:1:2", 2, 99, MORNING)); // cursors are no messages
    assertThat(report.seqAnomalyCount()).isEqualTo(3);
    assertThat(report.seqAnomalies()).containsExactly(new TrafficReport.SeqAnomaly("d:1:2", 1, 3),
        new TrafficReport.SeqAnomaly("d:1:2", 3, 3), new TrafficReport.SeqAnomaly("g:team", 6, 4));
  }

  @Test
  void anEditNoticeTakesItsSeqLikeAnyMessage() {
    TrafficReport report = new TrafficReport(TrafficReport.Period.DAY, Instant.EPOCH);
    report.add(appended("d:1:2", 1, 1, MessageType.TEXT, MORNING));
    report.add(edited("d:1:2", 2, 1, 1, MORNING));
    report.add(appended("d:1:2", 3, 1, MessageType.TEXT, MORNING));
    assertThat(report.seqAnomalyCount()).isZero();
  }

  @Test
  void listsOnlyTheFirstAnomaliesButCountsThemAll() {
    TrafficReport report = new TrafficReport(TrafficReport.Period.DAY, Instant.EPOCH);
    for (int i = 0; i <= TrafficReport.LISTED_ANOMALIES + 5; i++) {
      report.add(appended("d:1:2", 2L * i, 1, MessageType.TEXT, MORNING));
    }
    assertThat(report.seqAnomalyCount()).isEqualTo(TrafficReport.LISTED_ANOMALIES + 5);
    assertThat(report.seqAnomalies()).hasSize(TrafficReport.LISTED_ANOMALIES);
  }

  @Test
  void aPeriodIsHourOrDay() {
    assertThat(TrafficReport.Period.parse(" Hour ")).isEqualTo(TrafficReport.Period.HOUR);
    assertThat(TrafficReport.Period.parse("day")).isEqualTo(TrafficReport.Period.DAY);
    assertThatThrownBy(() -> TrafficReport.Period.parse("week")).hasMessage("--period must be hour or day: week");
  }
}
