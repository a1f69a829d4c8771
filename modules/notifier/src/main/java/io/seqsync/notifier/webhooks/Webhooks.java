package io.seqsync.notifier.webhooks;

import io.micrometer.core.instrument.MeterRegistry;
import io.seqsync.config.Integrations;
import io.seqsync.config.KafkaConnection;
import io.seqsync.config.SeqsyncConfig;
import io.seqsync.events.Topics;
import io.seqsync.notifier.DeliveryEngine;
import io.seqsync.store.keys.ContentOpener;
import java.time.Clock;
import org.jdbi.v3.core.Jdbi;

/** Starts the webhooks' delivery engine (its consumer group {@code seqsync-notifier-webhooks}, on every instance). */
public final class Webhooks {
  private Webhooks() {}

  /** {@code jdbi}: the background pool (no statement timeout). */
  public static DeliveryEngine start(Integrations.Webhooks settings, KafkaConnection kafka, Topics topics, Jdbi jdbi,
      SeqsyncConfig config, MeterRegistry registry) {
    WebhookChannel channel = new WebhookChannel(settings, Clock.systemUTC());
    return DeliveryEngine.start(channel, kafka, topics.events(), jdbi, channel.deliverySettings(),
        config.instanceId().orElseThrow(), config.projector().sessionTimeout(), registry,
        ContentOpener.of(config, jdbi));
  }
}
