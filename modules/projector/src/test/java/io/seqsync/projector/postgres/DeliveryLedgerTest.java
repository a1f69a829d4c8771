package io.seqsync.projector.postgres;

import static io.seqsync.store.TestDatabases.insertMessages;
import static org.assertj.core.api.Assertions.assertThat;

import io.seqsync.events.model.DeliveryReport;
import io.seqsync.events.model.RenderFailed;
import io.seqsync.events.model.Rendered;
import io.seqsync.store.Database;
import io.seqsync.store.DeliveryCause;
import io.seqsync.store.DeliveryQueries;
import io.seqsync.store.TestDatabases;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Delivery reports into message_renders and delivery_cases, and the figures of a period, on real PostgreSQL. */
class DeliveryLedgerTest {
  private static final String CONV = "d:1:2";
  private static final Duration TARGET = Duration.ofSeconds(2);

  @RegisterExtension
  static final TestDatabases databases = new TestDatabases("delivery");

  private final DeliveryLedger ledger = new DeliveryLedger(TARGET);
  private Database database;

  @BeforeEach
  void fourMessages() {
    database = databases.database();
    // msgIds 1001-1004, seqs 1-4, senders 1, 2, 1, 2, created at 5001-5004 ms.
    insertMessages(database.jdbi(), CONV, 4);
  }

  @Test
  void aLateRenderIsFiledUnderTheLegThatTookLonger() {
    assertThat(ledger.lateCause(0, 100, 1_500)).isNull();
    assertThat(ledger.lateCause(0, 100, 2_000)).as("exactly the target is on time").isNull();
    assertThat(ledger.lateCause(0, 100, 2_001)).isEqualTo(DeliveryCause.SLOW_DELIVERY);
    assertThat(ledger.lateCause(0, 1_900, 2_500)).isEqualTo(DeliveryCause.SLOW_SEND);
    assertThat(ledger.lateCause(5_000, 100, 4_000)).isEqualTo(DeliveryCause.CLOCK_SKEW);
  }

  @Test
  void reportsAreMatchedWithTheirMessagesAndRecordedOnce() {
    List<DeliveryReport> reports = List.of(
        rendered(2, "laptop", CONV, 1, 1001, 4_990, 5_300), // on time, 310 ms
        rendered(2, "phone", CONV, 1, 1001, 4_990, 5_900), // a second device: the send's first render stays 310
        rendered(2, "laptop", CONV, 3, 1003, 5_000, 9_000), // late, after the server numbered it
        rendered(2, "laptop", CONV, 2, 1002, 5_000, 5_100), // the sender's own device: not a delivery
        failed(2, "laptop", CONV, 3, 1003, "unsupported message type"),
        rendered(2, "laptop", CONV, 3, 1002, 5_000, 5_100), // msgId and seq disagree
        rendered(2, "laptop", "d:1:3", 1, 1001, 5_000, 5_100), // another conversation
        failed(2, "laptop", CONV, 9, 999_999, "no such message"));

    DeliveryLedger.Recorded first = database.jdbi().inTransaction(handle -> ledger.apply(handle, reports));
    DeliveryLedger.Recorded again = database.jdbi().inTransaction(handle -> ledger.apply(handle, reports));

    assertThat(first).isEqualTo(new DeliveryLedger.Recorded(4, 2, 3));
    assertThat(again).as("replayed after a crash").isEqualTo(new DeliveryLedger.Recorded(0, 0, 3));
    List<String> cases = database.jdbi().withHandle(handle -> handle.createQuery(
            "select cause || ':' || msg_id || ':' || coalesce(latency_ms::text, detail) from delivery_cases order by cause")
        .mapTo(String.class).list());
    assertThat(cases).containsExactly("render_failed:1003:unsupported message type", "slow_delivery:1003:4000");

    DeliveryQueries.Report report = new DeliveryQueries(database.jdbi(), TARGET).report(5_000, 6_000);
    assertThat(report.sends()).isEqualTo(4);
    assertThat(report.delivered()).as("1001 and 1003, each once").isEqualTo(2);
    assertThat(report.onTime()).isEqualTo(1);
    assertThat(report.p50Millis()).isEqualTo(310);
    assertThat(report.maxMillis()).isEqualTo(4_000);
    assertThat(report.cases()).isEqualTo(Map.of("render_failed", 1L, "slow_delivery", 1L));

    new MessageArchive(database.jdbi(), 45).run(Instant.now());
    assertThat(new DeliveryQueries(database.jdbi(), TARGET).report(5_000, 6_000)).as("once archived").isEqualTo(report);

    DeliveryQueries.Report before = new DeliveryQueries(database.jdbi(), TARGET).report(0, 5_000);
    assertThat(before).isEqualTo(new DeliveryQueries.Report(0, 0, 0, null, null, null, null, Map.of()));
  }

  private static DeliveryReport rendered(long user, String device, String conv, long seq, long msgId, long sent,
      long rendered) {
    return new DeliveryReport(user, device, conv, seq, msgId, 7_000L, new Rendered(sent, rendered));
  }

  private static DeliveryReport failed(long user, String device, String conv, long seq, long msgId, String reason) {
    return new DeliveryReport(user, device, conv, seq, msgId, 7_000L, new RenderFailed(reason));
  }
}
