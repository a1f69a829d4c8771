package io.seqsync.localstack;

import io.seqsync.config.KafkaSettings;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

/**
 * The configuration of one KRaft node on 127.0.0.1, broker and controller in one process (combined
 * mode): the embedded single broker ({@link EmbeddedKafka}) and each node of a local cluster
 * ({@link KafkaClusterNode}) are built from it, so the two differ only in what a cluster needs.
 */
public final class KafkaNodeConfig {
  private KafkaNodeConfig() {}

  /**
   * Node {@code nodeId} of a quorum of {@code voters} ({@code id@host:port,...}, the controllers'
   * addresses), serving clients on {@code brokerAddress} and its quorum on
   * {@code controllerAddress}, keeping its log in {@code logDir}. Kafka's internal topics (consumer
   * offsets, transaction state) get a replica on every node of a cluster of up to 3 and are written
   * to a majority of them, as seqsync's topics are (KafkaSettings).
   */
  public static Properties combined(int nodeId, String voters, int clusterSize, Path logDir, String brokerAddress,
      String controllerAddress) {
    String replicas = String.valueOf(Math.min(3, clusterSize));
    String minInsync = String.valueOf(Math.min(3, clusterSize) / 2 + 1);
    Properties config = new Properties();
    config.putAll(Map.ofEntries(
        Map.entry("process.roles", "broker,controller"),
        Map.entry("node.id", String.valueOf(nodeId)),
        Map.entry("controller.quorum.voters", voters),
        Map.entry("listeners", "PLAINTEXT://" + brokerAddress + ",CONTROLLER://" + controllerAddress),
        Map.entry("advertised.listeners", "PLAINTEXT://" + brokerAddress),
        Map.entry("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT"),
        Map.entry("controller.listener.names", "CONTROLLER"),
        Map.entry("inter.broker.listener.name", "PLAINTEXT"),
        Map.entry("log.dirs", logDir.toString()),
        Map.entry("default.replication.factor", replicas),
        Map.entry("min.insync.replicas", minInsync),
        Map.entry("offsets.topic.replication.factor", replicas),
        Map.entry("transaction.state.log.replication.factor", replicas),
        Map.entry("transaction.state.log.min.isr", minInsync),
        Map.entry("share.coordinator.state.topic.replication.factor", replicas),
        Map.entry("share.coordinator.state.topic.min.isr", minInsync),
        // Fewer internal partitions than the default 50: the first consumer group and the first
        // transaction create these topics, and a laptop does not need that parallelism.
        Map.entry("offsets.topic.num.partitions", "8"),
        Map.entry("transaction.state.log.num.partitions", "8"),
        Map.entry("num.partitions", "1"),
        // Topics are declared by the application (TopicAdmin); a typo must not create one.
        Map.entry("auto.create.topics.enable", "false"),
        Map.entry("group.initial.rebalance.delay.ms", "0"),
        Map.entry("log.segment.bytes", String.valueOf(16 * 1024 * 1024)),
        Map.entry("num.network.threads", "2"),
        Map.entry("num.io.threads", "4"),
        // A transactional write to a partition still holding the previous transaction's markers is
        // retried here, 20 ms apart, for up to this long before the producer is told
        // CONCURRENT_TRANSACTIONS (Kafka's 100 ms is shorter than replicating those markers takes
        // on a loaded cluster, and the producer's own retries back off further).
        Map.entry("add.partitions.to.txn.retry.backoff.max.ms", "1000")));
    if (clusterSize > 1) {
      // A node that dies is fenced, and its partitions get new leaders, after 5 s without a
      // heartbeat instead of 9 s: on one machine there is no network to wait out, and every second
      // here is a second in which the dead node's partitions take no writes.
      config.put("broker.heartbeat.interval.ms", "1000");
      config.put("broker.session.timeout.ms", "5000");
      // replica.lag.time.max.ms stays Kafka's 30 s: a follower slowed down by a loaded machine
      // leaves the ISR only after that long, and with 3 replicas and min.insync.replicas=2 a
      // follower out of the ISR turns the next node's death into refused writes (seen at 10 s
      // in a chaos run on a machine at load 28).
    }
    return config;
  }
}
