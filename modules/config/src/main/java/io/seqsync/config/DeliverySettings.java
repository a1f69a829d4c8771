package io.seqsync.config;

import static io.seqsync.config.SeqsyncConfig.require;

import java.time.Duration;

/**
 * Delivery acceptance (R17, R24): the consumer group that projects clients' delivery reports into
 * PostgreSQL, and the send-to-render time within which a message counts as delivered on time;
 * a render later than that is filed as a negative case with its cause. {@code figuresCache}: how
 * long the figures of a period, once computed, answer whoever asks (each computation scans the
 * period's messages).
 */
public record DeliverySettings(String groupId, Duration renderTarget, Duration figuresCache) {
  public DeliverySettings {
    require(!groupId.isBlank(), "delivery.group-id must not be blank");
    require(renderTarget.toMillis() > 0, "delivery.render-target must be positive");
    require(!figuresCache.isNegative(), "delivery.figures-cache must not be negative");
  }
}
