package io.seqsync.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Typing and presence settings ({@code presence.*}): defaults, environment names, bad values refused by name. */
class PresenceSettingsTest {
  @Test
  void defaults() {
    assertThat(ConfigLoader.of(Map.of()).presence()).isEqualTo(new PresenceSettings(Duration.ofSeconds(30),
        Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(6)));
  }

  @Test
  void theEnvironmentSetsThem() {
    PresenceSettings presence = ConfigLoader.load(Map.of("SEQSYNC_PRESENCE_SOCKET_TTL", "1m",
        "SEQSYNC_PRESENCE_THROTTLE", "300ms", "SEQSYNC_PRESENCE_TYPING_INTERVAL", "1s",
        "SEQSYNC_PRESENCE_TYPING_TIMEOUT", "3s"), Optional.empty()).presence();
    assertThat(presence).isEqualTo(new PresenceSettings(Duration.ofMinutes(1), Duration.ofMillis(300),
        Duration.ofSeconds(1), Duration.ofSeconds(3)));
  }

  @Test
  void badValuesAreRefusedByName() {
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("presence.socket-ttl", "1s")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("presence.socket-ttl");
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("presence.throttle", "2m")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("presence.throttle");
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("presence.typing-timeout", "2s")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("presence.typing-timeout");
  }
}
