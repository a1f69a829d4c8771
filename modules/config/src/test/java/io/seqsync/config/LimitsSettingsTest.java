package io.seqsync.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The abuse limits' settings ({@code limits.*}): defaults, environment names, fractions, bad values refused. */
class LimitsSettingsTest {
  @Test
  void defaultsFitAPerson() {
    LimitsSettings limits = ConfigLoader.of(Map.of()).limits();
    assertThat(limits.sendDevice()).isEqualTo(new LimitsSettings.Rate("send-device", 5, 30));
    assertThat(limits.sendUser()).isEqualTo(new LimitsSettings.Rate("send-user", 10, 60));
    assertThat(limits.draftWindow()).isEqualTo(Duration.ofSeconds(1));
    assertThat(limits.socketsPerUser()).isEqualTo(20);
    assertThat(limits.redisTimeout()).isEqualTo(Duration.ofMillis(50));
  }

  @Test
  void theEnvironmentSetsThemAndRatesTakeFractions() {
    LimitsSettings limits = ConfigLoader.load(Map.of("SEQSYNC_LIMITS_GROUP_USER_RATE", "0.5",
        "SEQSYNC_LIMITS_GROUP_USER_BURST", "4", "SEQSYNC_LIMITS_SOCKETS_PER_USER", "3",
        "SEQSYNC_LIMITS_DRAFT_WINDOW", "250ms"), Optional.empty()).limits();
    assertThat(limits.groupUser()).isEqualTo(new LimitsSettings.Rate("group-user", 0.5, 4));
    assertThat(limits.socketsPerUser()).isEqualTo(3);
    assertThat(limits.draftWindow()).isEqualTo(Duration.ofMillis(250));
  }

  @Test
  void raisedToNamesEveryBucketAsPropertiesAndAsEnvironment() {
    LimitsSettings raised = ConfigLoader.of(LimitsSettings.raisedTo(1000)).limits();
    assertThat(raised.frameSocket().perSecond()).isEqualTo(1000);
    assertThat(raised.socketUser().burst()).isEqualTo(1000);
    assertThat(raised.socketsPerUser()).isEqualTo(1000);
    LimitsSettings fromEnvironment =
        ConfigLoader.load(LimitsSettings.raisedToAsEnvironment(1000), Optional.empty()).limits();
    assertThat(fromEnvironment).isEqualTo(raised);
  }

  @Test
  void badValuesAreRefusedByName() {
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("limits.send-device.rate", "0")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("limits.send-device.rate");
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("limits.send-device.rate", "fast")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("must be a number");
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("limits.telemetry-device.burst", "0")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("limits.telemetry-device.burst");
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("limits.sockets-per-user", "0")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("limits.sockets-per-user");
  }
}
