package io.seqsync.sequencer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seqsync.config.ConfigLoader;
import io.seqsync.config.KafkaConnection;
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
 * The sequencer keeps its key-value state in one store; state a sequencer of an earlier layout
 * (a store per kind; the dedup window before its buckets) left on the cluster is refused, never
 * silently replaced by empty state.
 */
class SequencerStateLayoutTest extends BrokerTest {
  @Test
  void aSequencerRunsOnTheOneStoreLayout() {
    try (SequencerService service = SequencerService.start(KafkaConnection.plain(kafka.bootstrapServers()), config("layout-current"))) {
      assertThat(service.state()).isEqualTo(KafkaStreams.State.RUNNING);
    }
  }

  @Test
  void stateOfTheEarlierLayoutIsRefused() throws Exception {
    assertRefused("layout-earlier", "conv-seq");
  }

  @Test
  void theDedupWindowOfTheEarlierLayoutIsRefused() throws Exception {
    assertRefused("layout-earlier-dedup", "send-dedup");
  }

  private static void assertRefused(String applicationId, String earlierStore) throws Exception {
    String changelog = applicationId + "-" + earlierStore + "-changelog";
    Properties props = new Properties();
    props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    try (Admin admin = Admin.create(props)) {
      admin.createTopics(List.of(new NewTopic(changelog, 2, (short) 1))).all().get(30, TimeUnit.SECONDS);
      // The controller has the topic; the broker learns of it a moment later (KRaft propagates
      // metadata asynchronously). An earlier sequencer's changelog would have been there for long.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (!admin.listTopics().names().get(30, TimeUnit.SECONDS).contains(changelog)) {
        assertThat(System.nanoTime()).as("the broker lists %s", changelog).isLessThan(deadline);
        Thread.sleep(20);
      }
    }

    assertThatThrownBy(() -> SequencerService.start(KafkaConnection.plain(kafka.bootstrapServers()), config(applicationId)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(changelog)
        .hasMessageContaining("earlier layout");
  }

  private static SeqsyncConfig config(String applicationId) {
    return ConfigLoader.of(Map.of(
        "data-dir", dir.resolve(applicationId).toString(),
        "kafka.partitions", "2",
        "sequencer.application-id", applicationId));
  }
}
