package io.seqsync.events;

import java.util.Map;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.serialization.Serde;

/** One Kafka topic: its name, partition count, serdes and topic-level configuration. */
public record Topic<K, V>(String name, int partitions, Serde<K> keySerde, Serde<V> valueSerde, Map<String, String> configs) {
  public NewTopic newTopic(short replicationFactor) {
    return new NewTopic(name, partitions, replicationFactor).configs(configs);
  }
}
