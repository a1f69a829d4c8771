package io.seqsync.notifier;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.PreparedBatch;

/**
 * The notifier's tables in PostgreSQL (migration V12): the outbox of planned deliveries, the ledger
 * of settled seqs ({@code notifier_settled}) and the dead letters. Every method is one transaction
 * (or runs in the caller's). Thread-safe: holds only the Jdbi and the clock.
 */
final class Outbox {
  private static final String COLUMNS = "id, channel, target, stream, seq, payload, attempts";
  private static final String SETTLED = "insert into notifier_settled (channel, target, stream, seq) values (?, ?, ?, ?)"
      + " on conflict (channel, target, stream) do update set seq = greatest(notifier_settled.seq, excluded.seq)";
  private static final String RESCHEDULE = "update notifier_outbox set claimed_by = null, attempts = 0, last_error = null,"
      + " due_at = ? where id = ?";

  private final Jdbi jdbi;
  private final Clock clock;

  Outbox(Jdbi jdbi, Clock clock) {
    this.jdbi = jdbi;
    this.clock = clock;
  }

  /**
   * Adds {@code deliveries} of {@code channel} to the outbox in {@code handle}'s transaction, each
   * unless its seq is settled already. Coalesced: one row per stream, the highest seq's payload
   * kept, due once {@code window} has passed since the first; ordered: one row per seq, due now.
   */
  void enqueue(Handle handle, String channel, DeliveryChannel.Ordering ordering, List<Delivery> deliveries) {
    if (deliveries.isEmpty()) {
      return;
    }
    long now = clock.millis();
    long due = now + ordering.coalesceWindow().map(Duration::toMillis).orElse(0L);
    PreparedBatch batch = handle.prepareBatch("insert into notifier_outbox (channel, target, stream, slot, seq, payload,"
        + " due_at, created_at) select :channel, :target, :stream, :slot, :seq, :payload, :due, :now"
        + " where not exists (select 1 from notifier_settled s where s.channel = :channel and s.target = :target"
        + " and s.stream = :stream and s.seq >= :seq)"
        + " on conflict (channel, target, stream, slot) do update set seq = excluded.seq, payload = excluded.payload"
        + " where notifier_outbox.seq < excluded.seq");
    for (Delivery delivery : deliveries) {
      batch.bind("channel", channel).bind("target", delivery.target()).bind("stream", delivery.stream())
          .bind("slot", ordering.coalesced() ? "" : Long.toString(delivery.seq())).bind("seq", delivery.seq())
          .bind("payload", delivery.payload()).bind("due", due).bind("now", now).add();
    }
    batch.execute();
  }

  /**
   * Claims up to {@code limit} due deliveries of {@code channel} for {@code instance} until
   * {@code lease} has passed, counting the try. Ordered channels: only the lowest seq of each
   * stream. Rows another instance is claiming right now are skipped, not waited for.
   */
  List<PendingDelivery> claim(String channel, boolean ordered, String instance, Duration lease, int limit) {
    long now = clock.millis();
    String headOnly = ordered ? " and not exists (select 1 from notifier_outbox e where e.channel = o.channel"
        + " and e.target = o.target and e.stream = o.stream and e.seq < o.seq)" : "";
    return jdbi.inTransaction(handle -> handle.createQuery("update notifier_outbox set claimed_by = :instance,"
            + " due_at = :until, attempts = attempts + 1 where id in (select id from notifier_outbox o"
            + " where o.channel = :channel and o.due_at <= :now" + headOnly
            + " order by o.due_at limit :limit for update skip locked) returning " + COLUMNS)
        .bind("instance", instance).bind("until", now + lease.toMillis()).bind("channel", channel).bind("now", now)
        .bind("limit", limit)
        .map((rs, ctx) -> new PendingDelivery(rs.getLong("id"), rs.getString("channel"), rs.getString("target"),
            rs.getString("stream"), rs.getLong("seq"), rs.getBytes("payload"), rs.getInt("attempts")))
        .list());
  }

  /** Makes this instance's claims due again: what it was sending when it died is sent again now. */
  int releaseClaims(String instance) {
    return jdbi.withHandle(handle -> handle.createUpdate("update notifier_outbox set claimed_by = null, due_at = :now"
        + " where claimed_by = :instance").bind("now", clock.millis()).bind("instance", instance).execute());
  }

  /**
   * Settles {@code deliveries} in one transaction: each seq goes to the ledger and its row leaves
   * the outbox, unless a newer delivery was coalesced into the row meanwhile: the row then stays,
   * due after {@code window}.
   */
  void settle(List<PendingDelivery> deliveries, Duration window) {
    if (deliveries.isEmpty()) {
      return;
    }
    jdbi.useTransaction(handle -> {
      PreparedBatch settled = handle.prepareBatch(SETTLED);
      PreparedBatch deletes = handle.prepareBatch("delete from notifier_outbox where id = ? and seq = ?");
      for (PendingDelivery delivery : deliveries) {
        settled.add(delivery.channel(), delivery.target(), delivery.stream(), delivery.seq());
        deletes.add(delivery.id(), delivery.seq());
      }
      settled.execute();
      int[] deleted = deletes.execute();
      PreparedBatch reschedules = handle.prepareBatch(RESCHEDULE);
      for (int i = 0; i < deleted.length; i++) {
        if (deleted[i] == 0) {
          reschedules.add(clock.millis() + window.toMillis(), deliveries.get(i).id());
        }
      }
      if (reschedules.size() > 0) {
        reschedules.execute();
      }
    });
  }

  /** A failed try with more to come: due again after {@code backoff}. */
  void retryLater(PendingDelivery delivery, Duration backoff, String error) {
    jdbi.useHandle(handle -> handle.createUpdate("update notifier_outbox set claimed_by = null, due_at = :due,"
        + " last_error = :error where id = :id").bind("id", delivery.id())
        .bind("due", clock.millis() + backoff.toMillis()).bind("error", error).execute());
  }

  /**
   * Moves {@code delivery} to the dead letters and settles its seq (a replay does not plan it
   * again). A delivery coalesced into its row meanwhile stays, due after {@code window}.
   */
  void deadLetter(PendingDelivery delivery, String error, Duration window) {
    jdbi.useTransaction(handle -> {
      handle.createUpdate("insert into notifier_dead_letters (channel, target, stream, seq, payload, attempts,"
              + " last_error, failed_at) values (:channel, :target, :stream, :seq, :payload, :attempts, :error, :now)")
          .bind("channel", delivery.channel()).bind("target", delivery.target()).bind("stream", delivery.stream())
          .bind("seq", delivery.seq()).bind("payload", delivery.payload()).bind("attempts", delivery.attempts())
          .bind("error", error).bind("now", clock.millis()).execute();
      markSettled(handle, delivery);
      removeOrReschedule(handle, delivery, window);
    });
  }

  // The row leaves the outbox, unless a newer seq was coalesced into it while this one was sent.
  private void removeOrReschedule(Handle handle, PendingDelivery delivery, Duration window) {
    int deleted = handle.createUpdate("delete from notifier_outbox where id = :id and seq = :seq")
        .bind("id", delivery.id()).bind("seq", delivery.seq()).execute();
    if (deleted == 0) {
      handle.execute(RESCHEDULE, clock.millis() + window.toMillis(), delivery.id());
    }
  }

  private static void markSettled(Handle handle, PendingDelivery delivery) {
    handle.execute(SETTLED, delivery.channel(), delivery.target(), delivery.stream(), delivery.seq());
  }
}
