package io.seqsync.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The handshake's first screens and the restart's spread (issue 40): defaults, values taken, refusals. */
class SyncScreenSettingsTest {
  @Test
  void defaults() {
    FetchSettings fetch = ConfigLoader.of(Map.of()).fetch();
    assertThat(fetch.syncScreenConversations()).isEqualTo(100);
    assertThat(fetch.syncScreenBytes()).isEqualTo(1 << 20);
    assertThat(fetch.syncReconnectRate()).isEqualTo(2_000);
  }

  @Test
  void aSmallPageCarriesAtMostItsOwnConversations() {
    assertThat(ConfigLoader.of(Map.of("sync.page-size", "3")).fetch().syncScreenConversations()).isEqualTo(3);
  }

  @Test
  void setValuesAreTaken() {
    FetchSettings fetch = ConfigLoader.of(Map.of("sync.screen-conversations", "0", "sync.screen-bytes", "4096",
        "sync.reconnect-rate", "500")).fetch();
    assertThat(fetch.syncScreenConversations()).isZero();
    assertThat(fetch.syncScreenBytes()).isEqualTo(4096);
    assertThat(fetch.syncReconnectRate()).isEqualTo(500);
  }

  @Test
  void valuesOutOfRangeAreRefused() {
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("sync.screen-conversations", "501")))
        .hasMessageContaining("sync.screen-conversations must be 0..sync.page-size");
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("sync.screen-bytes", "-1")))
        .hasMessageContaining("sync.screen-bytes must be 0..67108864");
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("sync.reconnect-rate", "0")))
        .hasMessageContaining("sync.reconnect-rate must be positive");
  }
}
