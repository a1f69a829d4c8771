package io.seqsync.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The service tokens', pre-send hook's and webhooks' settings: no hook and no webhooks unless their URL is set. */
class IntegrationsSettingsTest {
  private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

  @Test
  void noHookAndNoWebhooksByDefault() {
    Integrations integrations = ConfigLoader.of(Map.of()).integrations();
    assertThat(integrations).isEqualTo(new Integrations("service", "seqsync-service", Optional.empty(), Optional.empty()));
    assertThat(ConfigLoader.of(Map.of()).limits().serverService()).isEqualTo(new LimitsSettings.Rate("server-service", 100, 1000));
  }

  @Test
  void defaultsAndOverridesFromTheEnvironment() {
    Integrations defaults = ConfigLoader.of(Map.of("hooks.pre-send.url", "http://127.0.0.1:9000/moderate",
        "webhooks.url", "https://hooks.example/seqsync", "webhooks.secret", SECRET)).integrations();
    assertThat(defaults.preSend()).contains(
        new Integrations.PreSendHook(URI.create("http://127.0.0.1:9000/moderate"), Duration.ofMillis(500), true));
    assertThat(defaults.webhooks()).contains(new Integrations.Webhooks(URI.create("https://hooks.example/seqsync"), SECRET,
        Integrations.EVENT_TYPES, 8, Duration.ofSeconds(5), Duration.ofSeconds(1)));

    Integrations set = ConfigLoader.load(Map.of("SEQSYNC_HOOKS_PRE_SEND_URL", "http://127.0.0.1:9000/m",
        "SEQSYNC_HOOKS_PRE_SEND_BUDGET", "2s", "SEQSYNC_HOOKS_PRE_SEND_ON_FAILURE", "closed",
        "SEQSYNC_WEBHOOKS_URL", "http://127.0.0.1:9001/w", "SEQSYNC_WEBHOOKS_SECRET", SECRET,
        "SEQSYNC_WEBHOOKS_EVENTS", "message.sent, read", "SEQSYNC_WEBHOOKS_MAX_ATTEMPTS", "3",
        "SEQSYNC_AUTH_SERVICE_CLAIM", "realm_access.roles", "SEQSYNC_AUTH_SERVICE_ROLE", "chat-backend"),
        Optional.empty()).integrations();
    assertThat(set.preSend().orElseThrow().failOpen()).isFalse();
    assertThat(set.preSend().orElseThrow().budget()).isEqualTo(Duration.ofSeconds(2));
    assertThat(set.webhooks().orElseThrow().events()).isEqualTo(Set.of("message.sent", "read"));
    assertThat(set.webhooks().orElseThrow().maxAttempts()).isEqualTo(3);
    assertThat(set.serviceClaim()).isEqualTo("realm_access.roles");
    assertThat(set.serviceRole()).isEqualTo("chat-backend");
  }

  @Test
  void refusedWhenIncompleteOrMalformed() {
    for (Map<String, String> settings : new Map[] {
        Map.of("webhooks.url", "https://hooks.example/seqsync"),
        Map.of("webhooks.url", "https://hooks.example/seqsync", "webhooks.secret", "not-a-whsec"),
        Map.of("webhooks.url", "https://hooks.example/seqsync", "webhooks.secret", "whsec_c2hvcnQ="),
        Map.of("webhooks.url", "ftp://hooks.example", "webhooks.secret", SECRET),
        Map.of("webhooks.url", "https://hooks.example", "webhooks.secret", SECRET, "webhooks.events", "message.deleted"),
        Map.of("hooks.pre-send.url", "http://127.0.0.1:9000/m", "hooks.pre-send.on-failure", "maybe"),
        Map.of("hooks.pre-send.url", "http://127.0.0.1:9000/m", "hooks.pre-send.budget", "1m"),
        Map.of("hooks.pre-send.url", "http://127.0.0.1:9000/m", "hooks.pre-send.budget", "soon")}) {
      assertThatThrownBy(() -> ConfigLoader.of(settings)).as(settings.toString()).isInstanceOf(ConfigException.class);
    }
  }
}
