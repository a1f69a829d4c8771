package io.seqsync.sequencer;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqsync.config.ConfigLoader;
import io.seqsync.config.KafkaConnection;
import java.util.Map;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;

class SequencerRocksDbConfigTest {
  static {
    RocksDB.loadLibrary();
  }

  @Test
  void smallMemtablesAndBloomFiltersOnEveryLevel() {
    try (Options options = new Options()) {
      // Streams' own settings, which the setter runs after.
      options.setWriteBufferSize(16L * 1024 * 1024).setOptimizeFiltersForHits(true);

      new SequencerRocksDbConfig().setConfig(SequencerStores.DEDUP + ".1764460800000", options, Map.of());

      assertThat(options.writeBufferSize()).isEqualTo(1024 * 1024);
      assertThat(options.optimizeFiltersForHits()).isFalse();
    }
  }

  @Test
  void theSequencerRunsWithIt() {
    assertThat(SequencerService.streamsProperties(KafkaConnection.plain("localhost:9092"), ConfigLoader.of(Map.of()))
        .get(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG)).isEqualTo(SequencerRocksDbConfig.class);
  }
}
