package io.seqsync.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DurationsTest {
  @Test
  void readsEveryUnitAndIso8601() {
    assertThat(Durations.parse("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(Durations.parse("30s")).isEqualTo(Duration.ofSeconds(30));
    assertThat(Durations.parse("15m")).isEqualTo(Duration.ofMinutes(15));
    assertThat(Durations.parse(" 12H ")).isEqualTo(Duration.ofHours(12));
    assertThat(Durations.parse("30d")).isEqualTo(Duration.ofDays(30));
    assertThat(Durations.parse("PT24H")).isEqualTo(Duration.ofHours(24));
    assertThat(Durations.parse("p2d")).isEqualTo(Duration.ofDays(2));
  }

  @Test
  void refusesWhatIsNoDuration() {
    for (String text : new String[] {"", "s", "12", "12x", "soon", "P", "1.5h", "99999999999999999999d"}) {
      assertThatThrownBy(() -> Durations.parse(text)).as(text)
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a duration");
    }
  }

  @Test
  void aSettingThatIsNoDurationIsAConfigError() {
    assertThat(ConfigLoader.of(Map.of("sequencer.commit-interval", "35ms")).sequencer().commitInterval())
        .isEqualTo(Duration.ofMillis(35));
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("sequencer.commit-interval", "soon")))
        .isInstanceOf(ConfigException.class)
        .hasMessage("sequencer.commit-interval must be a duration like 500ms, 30s, 24h or PT24H, got 'soon'");
  }

  @Test
  void theCommitIntervalIsLongerWhereACommitWaitsForReplicas() {
    assertThat(ConfigLoader.of(Map.of()).sequencer().commitInterval()).isEqualTo(Duration.ofMillis(20));
    assertThat(ConfigLoader.of(Map.of("kafka.replication-factor", "3")).sequencer().commitInterval())
        .isEqualTo(Duration.ofMillis(100));
    assertThat(ConfigLoader.of(Map.of("kafka.replication-factor", "3", "sequencer.commit-interval", "20ms"))
        .sequencer().commitInterval()).isEqualTo(Duration.ofMillis(20));
  }
}
