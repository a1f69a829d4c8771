package io.seqsync.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Replication is set in one place: the factor, and the replicas a write needs (a majority unless set). */
class KafkaReplicationSettingsTest {
  @Test
  void theEmbeddedSingleBrokerNeedsOneReplica() {
    KafkaSettings kafka = ConfigLoader.of(Map.of()).kafka();
    assertThat(kafka.replicationFactor()).isEqualTo((short) 1);
    assertThat(kafka.minInsyncReplicas()).isEqualTo((short) 1);
  }

  @Test
  void aClusterWritesToAMajorityOfTheReplicasUnlessToldOtherwise() {
    assertThat(ConfigLoader.of(Map.of("kafka.replication-factor", "3")).kafka().minInsyncReplicas())
        .isEqualTo((short) 2);
    assertThat(ConfigLoader.of(Map.of("kafka.replication-factor", "5")).kafka().minInsyncReplicas())
        .isEqualTo((short) 3);
    assertThat(ConfigLoader.of(Map.of("kafka.replication-factor", "3", "kafka.min-insync-replicas", "3"))
        .kafka().minInsyncReplicas()).isEqualTo((short) 3);
  }

  @Test
  void moreInSyncReplicasThanReplicasIsRefused() {
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("kafka.replication-factor", "3", "kafka.min-insync-replicas", "4")))
        .hasMessageContaining("kafka.min-insync-replicas must be 1..kafka.replication-factor");
  }
}
