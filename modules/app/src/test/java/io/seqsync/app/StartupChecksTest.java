package io.seqsync.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seqsync.config.ConfigException;
import io.seqsync.config.ConfigLoader;
import io.seqsync.ingress.auth.Tokens;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StartupChecksTest {
  private static final String SECRET = "a-production-secret-of-at-least-32-bytes!";

  @Test
  void theEmbeddedDefaultRunsWithTheDevelopmentSecret() {
    Tokens tokens = StartupChecks.tokens(ConfigLoader.of(Map.of()));

    String token = tokens.mint(1, "phone", Duration.ofMinutes(1));
    assertThat(new Tokens(Tokens.DEV_SECRET).verify(token).userId()).isEqualTo(1);
  }

  @Test
  void anExternalServerWithoutASecretRefusesToStart() {
    assertThatThrownBy(() -> StartupChecks.tokens(ConfigLoader.of(Map.of("kafka.bootstrap-servers", "kafka:9092"))))
        .isInstanceOf(ConfigException.class).hasMessageContaining("SEQSYNC_AUTH_SECRET");
  }

  @Test
  void theDevelopmentSecretIsRefusedOutsideTheEmbeddedDefault() {
    assertThatThrownBy(() -> StartupChecks.tokens(ConfigLoader.of(Map.of(
        "postgres.jdbc-url", "jdbc:postgresql://db/seqsync", "auth.secret", Tokens.DEV_SECRET))))
        .isInstanceOf(ConfigException.class);
  }

  @Test
  void theDevelopmentSecretNamedExplicitlyIsRefusedEvenFullyEmbedded() {
    assertThatThrownBy(() -> StartupChecks.tokens(ConfigLoader.of(Map.of("auth.secret", Tokens.DEV_SECRET))))
        .isInstanceOf(ConfigException.class).hasMessageContaining("published");
  }

  @Test
  void aProductionBuildRefusesTheDevelopmentSecret() {
    assertThatThrownBy(() -> StartupChecks.tokens(ConfigLoader.of(Map.of()), false))
        .isInstanceOf(ConfigException.class).hasMessageContaining("production build");
    assertThat(StartupChecks.tokens(ConfigLoader.of(Map.of("auth.secret", SECRET)), false)).isNotNull();
  }

  @Test
  void theDevelopmentSecretListensOnLoopbackUnlessToldOtherwise() {
    assertThat(ConfigLoader.of(Map.of()).http().host()).isEqualTo("127.0.0.1");
    assertThat(ConfigLoader.of(Map.of()).http().loopback()).isTrue();
    assertThat(ConfigLoader.of(Map.of("http.host", "0.0.0.0")).http().loopback()).isFalse();
    assertThat(ConfigLoader.of(Map.of("auth.secret", SECRET)).http().host()).isEqualTo("0.0.0.0");
  }

  @Test
  void aShortSecretIsAConfigurationError() {
    assertThatThrownBy(() -> StartupChecks.tokens(ConfigLoader.of(Map.of(
        "redis.uri", "redis://cache:6379", "auth.secret", "short"))))
        .isInstanceOf(ConfigException.class).hasMessageContaining("auth.secret");
  }

  @Test
  void aRealSecretSignsTokensThatOnlyItVerifies() {
    Tokens tokens = StartupChecks.tokens(ConfigLoader.of(Map.of(
        "kafka.bootstrap-servers", "kafka:9092", "auth.secret", SECRET)));

    String token = tokens.mint(7, "laptop", Duration.ofMinutes(1));
    assertThat(new Tokens(SECRET).verify(token).deviceId()).isEqualTo("laptop");
    assertThatThrownBy(() -> new Tokens(Tokens.DEV_SECRET).verify(token)).isInstanceOf(RuntimeException.class);
  }
}
