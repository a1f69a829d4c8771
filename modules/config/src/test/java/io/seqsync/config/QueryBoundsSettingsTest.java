package io.seqsync.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The statement timeout, the background pool and the handshake's page size: defaults and refusals. */
class QueryBoundsSettingsTest {
  @Test
  void defaults() {
    SeqsyncConfig config = ConfigLoader.of(Map.of());
    assertThat(config.postgres().statementTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(config.postgres().backgroundPoolSize()).isEqualTo(4);
    assertThat(config.fetch().syncPageSize()).isEqualTo(500);
  }

  @Test
  void setValuesAreTaken() {
    SeqsyncConfig config = ConfigLoader.of(Map.of("postgres.statement-timeout", "750ms",
        "postgres.background-pool-size", "2", "sync.page-size", "50"));
    assertThat(config.postgres().statementTimeout()).isEqualTo(Duration.ofMillis(750));
    assertThat(config.postgres().backgroundPoolSize()).isEqualTo(2);
    assertThat(config.fetch().syncPageSize()).isEqualTo(50);
  }

  @Test
  void valuesOutOfRangeAreRefused() {
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("postgres.statement-timeout", "0s")))
        .hasMessageContaining("postgres.statement-timeout must be positive");
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("postgres.background-pool-size", "0")))
        .hasMessageContaining("postgres.background-pool-size must be positive");
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("sync.page-size", "0")))
        .hasMessageContaining("sync.page-size must be 1..10000");
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("sync.page-size", "10001")))
        .hasMessageContaining("sync.page-size must be 1..10000");
  }
}
