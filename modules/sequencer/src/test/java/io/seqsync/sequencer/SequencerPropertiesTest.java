package io.seqsync.sequencer;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqsync.config.ConfigLoader;
import io.seqsync.config.KafkaConnection;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

class SequencerPropertiesTest {
  private static Properties streamsProperties(String commitInterval) {
    return SequencerService.streamsProperties(KafkaConnection.plain("localhost:9092"),
        ConfigLoader.of(Map.of("sequencer.commit-interval", commitInterval)));
  }

  @Test
  void theStreamThreadPollsNoLongerThanACommitInterval() {
    // Streams reads its commit timer only between polls: a longer poll would hold a processed
    // command uncommitted until the next one arrived.
    Properties props = streamsProperties("10ms");
    assertThat(props.get(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG)).isEqualTo(10L);
    assertThat(props.get(StreamsConfig.POLL_MS_CONFIG)).isEqualTo(10L);
  }

  @Test
  void theDefaultCommitIntervalIsTwentyMilliseconds() {
    Properties props = SequencerService.streamsProperties(KafkaConnection.plain("localhost:9092"), ConfigLoader.of(Map.of()));
    assertThat(props.get(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG)).isEqualTo(20L);
    assertThat(props.get(StreamsConfig.POLL_MS_CONFIG)).isEqualTo(20L);
  }

  @Test
  void longCommitIntervalsKeepStreamsOwnPoll() {
    assertThat(streamsProperties("1s").get(StreamsConfig.POLL_MS_CONFIG)).isEqualTo(100L);
  }

  @Test
  void theProducerRetriesSoon() {
    assertThat(streamsProperties("10ms").get(StreamsConfig.producerPrefix(ProducerConfig.RETRY_BACKOFF_MS_CONFIG)))
        .isEqualTo(10);
  }

  @Test
  void anInstanceWithAnIdIsAStaticMemberAndItsStoresAreTransactional() {
    Properties props = SequencerService.streamsProperties(KafkaConnection.plain("localhost:9092"),
        ConfigLoader.of(Map.of()).withInstanceId("seqsync-a1"));
    // Streams appends each stream thread's index to it.
    assertThat(props.get(StreamsConfig.consumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG))).isEqualTo("seqsync-a1");
    assertThat(props.get(StreamsConfig.TRANSACTIONAL_STATE_STORES_CONFIG)).isEqualTo(true);
  }

  @Test
  void withoutAnIdItIsADynamicMemberAndTransactionalStoresCanBeTurnedOff() {
    Properties props = SequencerService.streamsProperties(KafkaConnection.plain("localhost:9092"),
        ConfigLoader.of(Map.of("sequencer.transactional-stores", "false")));
    assertThat(props).doesNotContainKey(StreamsConfig.consumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG));
    assertThat(props.get(StreamsConfig.TRANSACTIONAL_STATE_STORES_CONFIG)).isEqualTo(false);
  }
}
