package io.seqsync.notifier.push;

import io.micrometer.core.instrument.MeterRegistry;
import io.seqsync.config.KafkaConnection;
import io.seqsync.config.NotifySettings;
import io.seqsync.config.SeqsyncConfig;
import io.seqsync.events.Topics;
import io.seqsync.notifier.DeliveryEngine;
import io.seqsync.notifier.DeliverySettings;
import io.seqsync.redis.SocketRegistry;
import io.seqsync.store.BadgeQueries;
import io.seqsync.store.ListSettingsQueries;
import io.seqsync.store.PusherQueries;
import io.seqsync.store.keys.ContentOpener;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import io.seqsync.store.shard.ShardMap;
import org.jdbi.v3.core.Jdbi;

/** Starts the push channel's {@link DeliveryEngine} from the configuration. */
public final class PushNotifications {
  /** Where the VAPID keys are kept under the data directory. */
  public static final String VAPID_FILE = "vapid-key.json";
  private static final Duration POLL = Duration.ofMillis(100);

  private PushNotifications() {}

  public static VapidKeys vapid(SeqsyncConfig config) {
    return VapidKeys.loadOrCreate(config.dataDir().resolve(Path.of(VAPID_FILE)), config.notifications().vapidSubject());
  }

  /** {@code jdbi}: the background pool; {@code sockets}: the live push sockets, to spare the devices watching. */
  public static DeliveryEngine start(SeqsyncConfig config, KafkaConnection kafka, Topics topics, Jdbi jdbi,
      SocketRegistry sockets, VapidKeys vapid, MeterRegistry registry) {
    return start(config, kafka, topics, ShardMap.single(jdbi), sockets, vapid, registry);
  }

  /**
   * With shards: the outbox and the pushers on the home shard's background pool; mute settings and
   * badges read from the conversations' shards.
   */
  public static DeliveryEngine start(SeqsyncConfig config, KafkaConnection kafka, Topics topics, ShardMap shards,
      SocketRegistry sockets, VapidKeys vapid, MeterRegistry registry) {
    NotifySettings notify = config.notifications();
    Jdbi jdbi = shards.home();
    PushChannel channel = new PushChannel(notify.coalesceWindow(), notify.preview(), new PusherQueries(jdbi),
        new ListSettingsQueries(shards), new BadgeQueries(shards),
        Optional.of(sockets), vapid, Optional.of(shards));
    DeliverySettings settings = new DeliverySettings(notify.maxAttempts(), notify.firstBackoff(), notify.maxBackoff(),
        notify.requestTimeout(), notify.inFlight(), POLL);
    return DeliveryEngine.start(channel, kafka, topics.events(), jdbi, settings, config.instanceId().orElseThrow(),
        config.projector().sessionTimeout(), registry, ContentOpener.of(config, jdbi));
  }
}
