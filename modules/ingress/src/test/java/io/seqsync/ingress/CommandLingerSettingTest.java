package io.seqsync.ingress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seqsync.config.ConfigException;
import io.seqsync.config.ConfigLoader;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** http.command-linger: how long the ingress's producer waits to send commands together. */
class CommandLingerSettingTest {
  @Test
  void defaultsToKafkasLingerAndCanBeSet() {
    assertThat(ConfigLoader.of(Map.of()).http().commandLinger()).isEqualTo(Duration.ofMillis(5));
    assertThat(ConfigLoader.load(Map.of("SEQSYNC_HTTP_COMMAND_LINGER", "0ms"), Optional.empty()).http().commandLinger())
        .isZero();
    assertThat(ConfigLoader.of(Map.of("http.command-linger", "1ms")).http().commandLinger())
        .isEqualTo(Duration.ofMillis(1));
  }

  @Test
  void isHeldToZeroToOneSecond() {
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("http.command-linger", "-1ms")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("http.command-linger");
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("http.command-linger", "2s")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("http.command-linger");
  }
}
