package io.seqsync.config;

import static io.seqsync.config.SeqsyncConfig.require;

import java.util.Optional;

/**
 * Kafka: {@code bootstrapServers} empty means an in-process KRaft broker under {@code dataDir/kafka},
 * listening on {@code embeddedPort} (0: any free port). {@code replicationFactor} and
 * {@code minInsyncReplicas} apply to every topic seqsync creates, its own and Kafka Streams'
 * internal ones (changelogs, repartition): a write with {@code acks=all} (commands, the
 * sequencer's transactions) is acknowledged once that many replicas hold it, and refused while
 * fewer are in sync. {@code security}: TLS and authentication to a configured Kafka (an embedded
 * broker is always plain).
 */
public record KafkaSettings(
    Optional<String> bootstrapServers,
    String topicPrefix,
    int commandPartitions,
    int eventPartitions,
    short replicationFactor,
    short minInsyncReplicas,
    int embeddedPort,
    KafkaSecurity security) {
  public KafkaSettings {
    require(commandPartitions > 0 && commandPartitions <= 1024, "kafka.command-partitions must be 1..1024");
    require(eventPartitions == commandPartitions,
        "kafka.event-partitions must equal kafka.command-partitions: events keep their conversation's partition");
    require(replicationFactor > 0, "kafka.replication-factor must be positive");
    require(minInsyncReplicas > 0 && minInsyncReplicas <= replicationFactor,
        "kafka.min-insync-replicas must be 1..kafka.replication-factor");
  }

  /**
   * The default {@code min.insync.replicas} for a replication factor: a majority of the replicas
   * (1 of 1, 2 of 2, 2 of 3, 3 of 5), so an acknowledged write survives the loss of any minority.
   */
  public static short majorityOf(short replicationFactor) {
    return (short) (replicationFactor / 2 + 1);
  }
}
