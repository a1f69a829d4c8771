package io.seqsync.projector;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqsync.store.StoredOffsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Jdbi;

/** What the projection holds in PostgreSQL, read back for assertions. Thread-safe, as Jdbi is. */
final class StoredProjection {
  private final Jdbi jdbi;
  private final String topic;

  private record StoredRow(String convId, long seq, long msgId) {}

  StoredProjection(Jdbi jdbi, String topic) {
    this.jdbi = jdbi;
    this.topic = topic;
  }

  long messageCount() {
    return count("select count(*) from messages");
  }

  long seqAnomalyRows() {
    return count("select count(*) from seq_anomalies");
  }

  /**
   * Waits until at least {@code expected} messages are stored; fails after {@code timeout}, and
   * when {@code exactly}, also if more are stored.
   */
  void awaitMessages(long expected, Duration timeout, boolean exactly) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (messageCount() < expected && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    long stored = messageCount();
    assertThat(stored).as("messages stored within %s", timeout).isGreaterThanOrEqualTo(expected);
    if (exactly) {
      assertThat(stored).as("messages stored").isEqualTo(expected);
    }
  }

  /** Waits until projector_offsets equal {@code expected}; fails after {@code timeout}. */
  void awaitOffsets(Map<Integer, Long> expected, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!offsets().equals(expected) && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertThat(offsets()).as("projector_offsets within %s", timeout).isEqualTo(expected);
  }

  /** Every stored message as {@code convId/seq/msgId}. */
  List<String> messageKeys() {
    return jdbi.withHandle(handle -> handle.createQuery("select conv_id || '/' || seq || '/' || msg_id from messages")
        .mapTo(String.class).list());
  }

  /**
   * Asserts that the projection holds exactly what was committed: per conversation seqs 1..N with
   * the committed msgIds in order, latest_seq N, no seq anomaly, and the offsets past the last record.
   */
  void assertHoldsExactly(EventLog log) {
    List<StoredRow> rows = jdbi.withHandle(handle -> handle.createQuery(
            "select conv_id, seq, msg_id from messages order by conv_id, seq")
        .map((row, ctx) -> new StoredRow(row.getString(1), row.getLong(2), row.getLong(3)))
        .list());
    Map<String, List<Long>> stored = new LinkedHashMap<>();
    for (StoredRow row : rows) {
      List<Long> msgIds = stored.computeIfAbsent(row.convId(), conv -> new ArrayList<>());
      assertThat(row.seq()).as("seq of %s", row.convId()).isEqualTo(msgIds.size() + 1L);
      msgIds.add(row.msgId());
    }
    assertThat(stored).as("messages per conversation, by seq").isEqualTo(log.committedMsgIds());
    log.committedMsgIds().forEach((convId, msgIds) ->
        assertThat(count("select latest_seq from conversations where conv_id = '" + convId + "'"))
            .as("latest_seq of %s", convId).isEqualTo(msgIds.size()));
    assertThat(seqAnomalyRows()).as("seq_anomalies rows").isZero();
    assertThat(offsets()).as("projector_offsets").isEqualTo(log.nextOffsets());
  }

  Map<Integer, Long> offsets() {
    return jdbi.withHandle(handle -> StoredOffsets.read(handle, topic));
  }

  private long count(String sql) {
    return jdbi.withHandle(handle -> handle.createQuery(sql).mapTo(Long.class).one());
  }
}
