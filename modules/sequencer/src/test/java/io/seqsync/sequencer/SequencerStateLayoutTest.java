package io.seqsync.sequencer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seqsync.config.ConfigLoader;
import io.seqsync.config.SeqsyncConfig;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;

/**
 * The sequencer keeps its key-value state in one store; state a sequencer of the earlier layout
 * (a store per kind) left on the cluster is refused, never silently replaced by empty state.
 */
class SequencerStateLayoutTest extends BrokerTest {
  @Test
  void aSequencerRunsOnTheOneStoreLayout() {
    try (SequencerService service = SequencerService.start(kafka.bootstrapServers(), config("layout-current"))) {
      assertThat(service.state()).isEqualTo(KafkaStreams.State.RUNNING);
    }
  }

  @Test
  void stateOfTheEarlierLayoutIsRefused() throws Exception {
    Properties props = new Properties();
    props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    try (Admin admin = Admin.create(props)) {
      admin.createTopics(List.of(new NewTopic("layout-earlier-conv-seq-changelog", 2, (short) 1)))
          .all().get(30, TimeUnit.SECONDS);
    }

    assertThatThrownBy(() -> SequencerService.start(kafka.bootstrapServers(), config("layout-earlier")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("layout-earlier-conv-seq-changelog")
        .hasMessageContaining("earlier layout");
  }

  private static SeqsyncConfig config(String applicationId) {
    return ConfigLoader.of(Map.of(
        "data-dir", dir.resolve(applicationId).toString(),
        "kafka.partitions", "2",
        "sequencer.application-id", applicationId));
  }
}
