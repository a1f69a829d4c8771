package io.seqsync.notifier;

import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/**
 * One kind of outbound HTTP delivery driven by the event log (push notifications, webhooks), run by
 * a {@link DeliveryEngine}. The engine reads {@code seqsync.events} in a consumer group of the
 * channel's own ({@link #name()}), asks the channel to {@link #plan} each batch, and keeps what it
 * planned in PostgreSQL's outbox in the same transaction; dispatchers on every instance then send
 * due deliveries ({@link #request}), retry failures with exponential back-off and move a delivery
 * that failed every try to the dead letters ({@code notifier_dead_letters}).
 *
 * <p>Guarantees, per (channel, target, stream):
 * <ul>
 *   <li>at least once: a planned delivery stays in the outbox until its receiver took it (2xx) or it
 *       was dead-lettered, across crashes (a kill -9 mid-send leaves it claimed; the same instance
 *       takes its claims back at start, another one once the claim's lease ran out);
 *   <li>never twice for a seq: once settled, no seq at or below it is planned again (a batch read
 *       again after a crash finds it in {@code notifier_settled}). The one window left is a crash
 *       between the receiver's 2xx and the settling commit (milliseconds): the receiver then gets
 *       it again, with the same {@code seq};
 *   <li>{@link Ordering#ORDERED}: one delivery per event, sent in seq order (the next one waits
 *       until the one before is settled); {@link Ordering#coalescing}: one pending delivery per
 *       stream, the latest planned replacing the earlier ones, sent once its window has passed.
 * </ul>
 *
 * <p>Implementations must be thread-safe: {@link #plan} runs on the channel's consumer thread,
 * {@link #request} and {@link #verdict} on its dispatcher threads.
 */
public interface DeliveryChannel {
  /**
   * The channel's name: its rows in the outbox, ledger and dead letters, and its consumer group
   * ({@code seqsync-notifier-<name>}). Lower-case letters, digits and dashes; never changed once used.
   */
  String name();

  /** How deliveries of one (target, stream) are grouped and ordered. */
  Ordering ordering();

  /**
   * The deliveries a batch of events calls for, in {@code handle}'s transaction (where the outbox
   * rows and nothing else are written by the engine; read the channel's configuration with it). A
   * plain function of the events and the database: it runs again for a batch read again.
   */
  List<Delivery> plan(Handle handle, List<LoggedEvent> events);

  /**
   * Told the batch of due deliveries about to be sent, before {@link #request} is asked for each of
   * them on the same thread: a channel may look up what their requests need in a few queries here
   * rather than a few per delivery. Throwing counts a failed try for each. By default nothing.
   */
  default void prepare(List<PendingDelivery> due) {}

  /**
   * The request that sends {@code delivery} now, or empty when there is nothing to send any more
   * (e.g. the device is connected now): the delivery is then settled as {@link Verdict#SKIPPED}.
   * Built at send time, so that it carries what is true then (a badge count, a signature's time).
   * Throwing counts as a failed try.
   */
  Optional<HttpRequest> request(PendingDelivery delivery);

  /** The verdict on a receiver's answer; by default {@link Verdict#ofStatus}. */
  default Verdict verdict(PendingDelivery delivery, int status, String body) {
    return Verdict.ofStatus(status);
  }

  /** Told once a delivery is settled (delivered, skipped, refused or dead-lettered): for metrics or clean-up. */
  default void settled(PendingDelivery delivery, Verdict verdict) {}

  /** How deliveries of one (target, stream) are grouped and ordered. */
  record Ordering(Optional<Duration> coalesceWindow) {
    /** Every delivery sent, in seq order per (target, stream): webhooks. */
    public static final Ordering ORDERED = new Ordering(Optional.empty());

    /** One pending delivery per (target, stream), the latest kept, sent {@code window} after the first of its burst: notifications. */
    public static Ordering coalescing(Duration window) {
      return new Ordering(Optional.of(window));
    }

    public boolean coalesced() {
      return coalesceWindow.isPresent();
    }
  }
}
