package io.seqsync.store;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.jdbi.v3.core.Jdbi;

/**
 * Delivery acceptance over a period (R24): of the messages users sent in it, how many another member
 * rendered, how many within the target, the send-to-render latency of their first such render, and
 * the negative cases by cause. Counted per sent message, so a group message rendered by a hundred
 * members weighs as one send, not a hundred. Thread-safe: holds only the (thread-safe) Jdbi.
 */
public final class DeliveryQueries {
  /**
   * The figures of one period. {@code delivered}: sends another member rendered; {@code onTime}: of
   * those, the ones whose first render came within the target; latencies (ms) over the delivered
   * ones whose clocks agree (a render not before its send), null when there are none; cases: the
   * library's count per cause, of the messages sent in the period.
   */
  public record Report(long sends, long delivered, long onTime, Long p50Millis, Long p90Millis, Long p99Millis,
      Long maxMillis, Map<String, Long> cases) {
    public Report {
      cases = Map.copyOf(cases);
    }
  }

  // Users' messages of the period (not system notices or recall notices), in the hot tier or the
  // archive, each with its first render by someone other than its sender; latencies by the two
  // clients' clocks.
  private static final String SENT_IN = " where create_time >= :from and create_time < :to"
      + " and type not in ('system', 'recall')";
  private static final String FIGURES = "with sent as ("
      + " select msg_id, sender_id from messages" + SENT_IN
      + " union all select msg_id, sender_id from archived_messages" + SENT_IN
      + "), firsts as ("
      + " select r.msg_id, min(r.render_time - r.send_time) as latency"
      + " from message_renders r join sent s on s.msg_id = r.msg_id and r.user_id <> s.sender_id"
      + " group by r.msg_id"
      + ") select (select count(*) from sent) as sends, count(*) as delivered,"
      + " count(*) filter (where latency between 0 and :target) as on_time,"
      + " percentile_disc(0.5) within group (order by latency) filter (where latency >= 0) as p50,"
      + " percentile_disc(0.9) within group (order by latency) filter (where latency >= 0) as p90,"
      + " percentile_disc(0.99) within group (order by latency) filter (where latency >= 0) as p99,"
      + " max(latency) filter (where latency >= 0) as max from firsts";

  /** A case of the negative-case library (latency null for a failure, detail the client's reason). */
  public record Case(long msgId, long userId, String deviceId, String cause, String convId, long seq, long createTime,
      Long latencyMillis, String detail, long reportedAt) {}

  private final Jdbi jdbi;
  private final long targetMillis;

  public DeliveryQueries(Jdbi jdbi, Duration renderTarget) {
    this.jdbi = jdbi;
    this.targetMillis = renderTarget.toMillis();
  }

  /** The figures for the messages created in [{@code fromMillis}, {@code toMillis}). */
  public Report report(long fromMillis, long toMillis) {
    return jdbi.inTransaction(handle -> {
      Map<String, Long> cases = new TreeMap<>();
      handle.createQuery("select cause, count(*) as n from delivery_cases"
              + " where create_time >= :from and create_time < :to group by cause")
          .bind("from", fromMillis).bind("to", toMillis)
          .map((row, ctx) -> Map.entry(row.getString("cause"), row.getLong("n")))
          .forEach(entry -> cases.put(entry.getKey(), entry.getValue()));
      return handle.createQuery(FIGURES)
          .bind("from", fromMillis).bind("to", toMillis).bind("target", targetMillis)
          .map((row, ctx) -> new Report(row.getLong("sends"), row.getLong("delivered"), row.getLong("on_time"),
              (Long) row.getObject("p50"), (Long) row.getObject("p90"), (Long) row.getObject("p99"),
              (Long) row.getObject("max"), cases))
          .one();
    });
  }

  /**
   * The library's cases of {@code cause} (empty: every cause), newest message first, {@code limit}
   * of them after skipping {@code offset}: browsed by an operator, a page at a time.
   */
  public List<Case> cases(Optional<String> cause, int limit, int offset) {
    return jdbi.withHandle(handle -> handle.createQuery("select msg_id, user_id, device_id, cause, conv_id, seq,"
            + " create_time, latency_ms, detail, reported_at from delivery_cases"
            + " where (cast(:cause as text) is null or cause = :cause)"
            + " order by create_time desc, msg_id desc, user_id, device_id limit :limit offset :offset")
        .bind("cause", cause.orElse(null)).bind("limit", limit).bind("offset", offset)
        .map((row, ctx) -> new Case(row.getLong("msg_id"), row.getLong("user_id"), row.getString("device_id"),
            row.getString("cause"), row.getString("conv_id"), row.getLong("seq"), row.getLong("create_time"),
            (Long) row.getObject("latency_ms"), row.getString("detail"), row.getLong("reported_at")))
        .list());
  }

  /** The render target the on-time count uses. */
  public Duration renderTarget() {
    return Duration.ofMillis(targetMillis);
  }
}
