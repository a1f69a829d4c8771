package io.seqsync.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InstanceIdTest {
  @TempDir
  Path dir;

  @Test
  void aDataDirectoryKeepsItsIdAcrossRestartsAndAnotherGetsItsOwn() {
    String first = InstanceId.stored(dir.resolve("a"));
    assertThat(first).startsWith("seqsync-");
    assertThat(InstanceId.stored(dir.resolve("a"))).as("read back after a restart").isEqualTo(first);
    assertThat(InstanceId.stored(dir.resolve("b"))).isNotEqualTo(first);
  }

  @Test
  void theInstanceAndItsProjectorAreNamedAfterTheDataDirectoryUnlessConfigured() {
    SeqsyncConfig stored = InstanceId.applied(ConfigLoader.of(Map.of("data-dir", dir.toString())));
    assertThat(stored.instanceId()).contains(InstanceId.stored(dir));
    assertThat(stored.projector().instanceId()).isEqualTo(stored.instanceId());

    SeqsyncConfig configured = InstanceId.applied(ConfigLoader.of(Map.of("data-dir", dir.toString(),
        "instance-id", "chat-7", "projector.instance-id", "projector-7")));
    assertThat(configured.instanceId()).contains("chat-7");
    assertThat(configured.projector().instanceId()).contains("projector-7");
  }

  @Test
  void transactionalStoresAreOnUnlessTurnedOff() {
    assertThat(ConfigLoader.of(Map.of()).sequencer().transactionalStores()).isTrue();
    assertThat(ConfigLoader.of(Map.of("sequencer.transactional-stores", "false")).sequencer().transactionalStores())
        .isFalse();
    assertThatThrownBy(() -> ConfigLoader.load(Map.of("SEQSYNC_SEQUENCER_TRANSACTIONAL_STORES", "yes"), Optional.empty()))
        .isInstanceOf(ConfigException.class).hasMessageContaining("true or false");
  }
}
