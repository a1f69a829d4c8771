package io.seqsync.store;

import java.util.List;
import org.jdbi.v3.core.Jdbi;

/**
 * The gaps the projector recorded in {@code seq_anomalies} (R25: a seq step other than +1, with the
 * conversation it hit), newest first, for the ops dashboard. Thread-safe: holds only the Jdbi.
 */
public final class SeqAnomalies {
  /** One recorded gap: the projector expected {@code expectedSeq} and got {@code actualSeq}. */
  public record Recorded(long id, String convId, long expectedSeq, long actualSeq, long msgId, long observedAtMillis) {}

  /** How many are recorded, and the latest of them. */
  public record Latest(long recorded, List<Recorded> latest) {
    public Latest {
      latest = List.copyOf(latest);
    }
  }

  private final Jdbi jdbi;

  public SeqAnomalies(Jdbi jdbi) {
    this.jdbi = jdbi;
  }

  /** The count and the {@code limit} newest. The table is small: a gap is an incident, not traffic. */
  public Latest latest(int limit) {
    return jdbi.inTransaction(handle -> new Latest(
        handle.createQuery("select count(*) from seq_anomalies").mapTo(Long.class).one(),
        handle.createQuery("select id, conv_id, expected_seq, actual_seq, msg_id,"
                + " (extract(epoch from observed_at) * 1000)::bigint as observed_ms"
                + " from seq_anomalies order by id desc limit :limit")
            .bind("limit", limit)
            .map((row, ctx) -> new Recorded(row.getLong("id"), row.getString("conv_id"), row.getLong("expected_seq"),
                row.getLong("actual_seq"), row.getLong("msg_id"), row.getLong("observed_ms")))
            .list()));
  }
}
