package io.seqsync.notifier.webhooks;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.seqsync.config.Integrations;
import io.seqsync.notifier.Delivery;
import io.seqsync.notifier.DeliveryChannel;
import io.seqsync.notifier.DeliverySettings;
import io.seqsync.notifier.LoggedEvent;
import io.seqsync.notifier.PendingDelivery;
import java.net.http.HttpRequest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/**
 * Webhooks (docs/api.md, "Webhooks") as a channel of the notifier's delivery engine: every event
 * of a configured type is one delivery to {@code webhooks.url}, in order per conversation (the
 * stream is the convId, ordered by the event's offset in its partition, which is the
 * conversation's order), at least once, retried with back-off and dead-lettered after
 * {@code webhooks.max-attempts}. Each request is signed per Standard Webhooks: {@code webhook-id}
 * (the same for every try of one event: receivers deduplicate by it), {@code webhook-timestamp}
 * (the try's, in seconds) and {@code webhook-signature}. Thread-safe.
 */
public final class WebhookChannel implements DeliveryChannel {
  /** The one endpoint's target name in the engine's tables. */
  static final String TARGET = "default";
  private static final Duration MAX_BACKOFF = Duration.ofMinutes(1);
  private static final int IN_FLIGHT = 16;
  private static final Duration POLL = Duration.ofMillis(500);

  private final Integrations.Webhooks settings;
  private final WebhookSignature signature;
  private final Clock clock;

  public WebhookChannel(Integrations.Webhooks settings, Clock clock) {
    this.settings = settings;
    this.signature = new WebhookSignature(settings.key());
    this.clock = clock;
  }

  /** The engine's settings for webhooks: {@code webhooks.max-attempts}, {@code .backoff} (doubling up to a minute), {@code .timeout}. */
  public DeliverySettings deliverySettings() {
    Duration backoff = settings.backoff();
    return new DeliverySettings(settings.maxAttempts(), backoff,
        backoff.compareTo(MAX_BACKOFF) > 0 ? backoff : MAX_BACKOFF, settings.timeout(), IN_FLIGHT, POLL);
  }

  @Override
  public String name() {
    return "webhooks";
  }

  @Override
  public Ordering ordering() {
    return Ordering.ORDERED;
  }

  @Override
  public List<Delivery> plan(Handle handle, List<LoggedEvent> events) {
    List<Delivery> deliveries = new ArrayList<>();
    for (LoggedEvent logged : events) {
      WebhookEvents.describe(logged.event())
          .filter(described -> settings.events().contains(described.type()))
          .ifPresent(described -> {
            ObjectNode body = WebhookEvents.JSON.createObjectNode()
                .put("type", described.type())
                .put("timestamp", Instant.ofEpochMilli(logged.event().getTime()).toString());
            body.set("data", described.data());
            deliveries.add(new Delivery(TARGET, logged.event().getConvId(), logged.offset(), bytes(body)));
          });
    }
    return deliveries;
  }

  @Override
  public Optional<HttpRequest> request(PendingDelivery delivery) {
    String id = id(delivery.stream(), delivery.seq());
    long timestamp = clock.instant().getEpochSecond();
    return Optional.of(HttpRequest.newBuilder(settings.url())
        .header("Content-Type", "application/json")
        .header("webhook-id", id)
        .header("webhook-timestamp", Long.toString(timestamp))
        .header("webhook-signature", signature.sign(id, timestamp, delivery.payload()))
        .POST(HttpRequest.BodyPublishers.ofByteArray(delivery.payload()))
        .build());
  }

  /** One event's id: its conversation and its offset in the conversation's partition. */
  static String id(String convId, long offset) {
    return "evt_" + convId.replace(':', '_') + "_" + offset;
  }

  private static byte[] bytes(ObjectNode body) {
    try {
      return WebhookEvents.JSON.writeValueAsBytes(body);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a tree of plain nodes always writes", e);
    }
  }
}
