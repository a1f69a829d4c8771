package io.seqsync.notifier;

import io.micrometer.core.instrument.MeterRegistry;
import io.seqsync.config.KafkaConnection;
import io.seqsync.events.Topic;
import io.seqsync.events.model.Event;
import io.seqsync.projector.Projector;
import io.seqsync.store.keys.ContentOpener;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/**
 * At-least-once outbound HTTP deliveries driven by the event log, for one {@link DeliveryChannel}
 * (see there for the guarantees): an {@link EventPlanner} (the channel's consumer group on the
 * events topic, planning into PostgreSQL's outbox) and a {@link Dispatcher} (sending what is due,
 * with retries and back-off, dead-lettering after {@link DeliverySettings#maxAttempts()} tries).
 * Each instance runs both: the group shares the partitions among instances, the outbox's claims
 * share the sends.
 *
 * <p>Use: {@code DeliveryEngine.start(channel, kafka, topics.events(), jdbi, settings, instanceId,
 * sessionTimeout, registry)}; {@link #close()} stops both (the batch in progress finished). The
 * dead letters are rows of {@code notifier_dead_letters} with the channel's name (docs/operations.md).
 * Thread-safe.
 */
public final class DeliveryEngine implements AutoCloseable {
  private final EventPlanner planner;
  private final Dispatcher dispatcher;

  private DeliveryEngine(EventPlanner planner, Dispatcher dispatcher) {
    this.planner = planner;
    this.dispatcher = dispatcher;
  }

  /**
   * Starts {@code channel}'s planner and dispatcher; returns at once. {@code instanceId}: this
   * instance's stable name (static group membership, and whose claims to take back at start);
   * {@code jdbi}: a pool without a statement timeout (the background pool).
   */
  public static DeliveryEngine start(DeliveryChannel channel, KafkaConnection kafka, Topic<String, Event> events,
      Jdbi jdbi, DeliverySettings settings, String instanceId, Duration sessionTimeout, MeterRegistry registry,
      ContentOpener opener) {
    Clock clock = Clock.systemUTC();
    Outbox outbox = new Outbox(jdbi, clock);
    HttpClient http = HttpClient.newBuilder().connectTimeout(settings.requestTimeout())
        .followRedirects(HttpClient.Redirect.NEVER).build();
    Dispatcher dispatcher = new Dispatcher(channel, outbox, settings, instanceId + "-" + channel.name(), http, registry);
    EventPlanner planner = new EventPlanner(channel,
        Projector.groupMember(kafka, groupId(channel), Optional.of(instanceId + "-notifier-" + channel.name()),
            sessionTimeout),
        events, jdbi, outbox, clock, settings.firstBackoff().plusSeconds(1), dispatcher::wake, opener);
    dispatcher.start();
    try {
      planner.start();
    } catch (RuntimeException e) {
      dispatcher.close();
      throw e;
    }
    return new DeliveryEngine(planner, dispatcher);
  }

  /** The consumer group of {@code channel}'s planners. */
  public static String groupId(DeliveryChannel channel) {
    return "seqsync-notifier-" + channel.name();
  }

  @Override
  public void close() {
    planner.close();
    dispatcher.close();
  }
}
