package io.seqsync.ingress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seqsync.config.ConfigException;
import io.seqsync.config.ConfigLoader;
import io.seqsync.config.FetchSettings;
import io.seqsync.ingress.api.Lane;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The fetch.* settings the ingress's lanes and buckets are built from, and the bounds they are held to. */
class FetchSettingsTest {
  @Test
  void lanesDefaultToSharesOfThePool() {
    FetchSettings defaults = ConfigLoader.of(Map.of()).fetch();
    assertThat(defaults.ratePerSecond()).isEqualTo(50);
    assertThat(defaults.burst()).isEqualTo(200);
    assertThat(defaults.firstScreen()).isEqualTo(new FetchSettings.Lane("first-screen", 8, 64, Duration.ofSeconds(2)));
    assertThat(defaults.paging()).isEqualTo(new FetchSettings.Lane("paging", 2, 16, Duration.ofMillis(500)));

    FetchSettings small = ConfigLoader.of(Map.of("postgres.pool-size", "3")).fetch();
    assertThat(small.firstScreen().concurrency()).isEqualTo(1);
    assertThat(small.paging().concurrency()).isEqualTo(1);
  }

  @Test
  void environmentVariablesSetEachLane() {
    FetchSettings fetch = ConfigLoader.load(Map.of("SEQSYNC_FETCH_PAGING_CONCURRENCY", "3",
        "SEQSYNC_FETCH_FIRST_SCREEN_QUEUE", "10", "SEQSYNC_FETCH_PAGING_WAIT", "1s", "SEQSYNC_FETCH_RATE", "7"),
        Optional.empty()).fetch();
    assertThat(fetch.paging().concurrency()).isEqualTo(3);
    assertThat(fetch.paging().maxWait()).isEqualTo(Duration.ofSeconds(1));
    assertThat(fetch.firstScreen().queue()).isEqualTo(10);
    assertThat(fetch.ratePerSecond()).isEqualTo(7);
  }

  @Test
  void lanesMustLeaveAConnectionAndServerThreadsToTheRest() {
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("fetch.paging.concurrency", "8")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("postgres.pool-size (16)");
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("postgres.pool-size", "2")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("fetch.first-screen.concurrency");
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("fetch.paging.queue", "130")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("at most 200");
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("fetch.rate", "0"))).isInstanceOf(ConfigException.class);
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("fetch.first-screen.wait", "-1s")))
        .isInstanceOf(ConfigException.class);
  }
}
