package io.seqsync.app;

import io.seqsync.config.KafkaConnection;
import io.seqsync.config.SeqsyncConfig;
import io.seqsync.consumers.ProjectionLag;
import io.seqsync.events.Topics;
import io.seqsync.ingress.health.HealthProbe;
import io.seqsync.projector.DeliveryProjector;
import io.seqsync.projector.Projector;
import io.seqsync.redis.RedisHealth;
import io.seqsync.sequencer.SequencerService;
import io.seqsync.store.shard.ShardMap;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

/**
 * The health probes of what the app runs beyond the ingress's own Kafka and PostgreSQL checks:
 * Redis, the sequencer, the two projectors, the projection's lag and the read replicas (if any).
 * Owns their clients (an admin client, a consumer measuring the lag); close it after the ingress.
 */
final class HealthProbes implements AutoCloseable {
  private final ConsumerGroups groups;
  private final ProjectionLag lag;
  private final List<HealthProbe> probes;

  HealthProbes(SeqsyncConfig config, KafkaConnection kafka, Topics topics, RedisHealth redis,
      CompletableFuture<SequencerService> sequencer, Projector projector, DeliveryProjector delivery, ShardMap shards,
      Optional<HealthProbe> replicas) {
    this.groups = new ConsumerGroups(kafka);
    this.lag = new ProjectionLag(kafka, topics.events().name(),
        shards::storedOffsets);
    this.probes = Stream.concat(Stream.of(new RedisProbe(redis),
        new SequencerProbe(sequencer, config.sequencer().applicationId(), groups),
        new ProjectorProbe("eventProjector", config.projector().groupId(), projector::assignedPartitions,
            projector.stopped(), groups),
        new ProjectorProbe("deliveryProjector", config.delivery().groupId(), delivery::assignedPartitions,
            delivery.stopped(), groups),
        new ProjectionLagProbe(lag, config.health().projectorLagThreshold())), replicas.stream()).toList();
  }

  List<HealthProbe> probes() {
    return probes;
  }

  @Override
  public void close() {
    lag.close();
    groups.close();
  }
}
