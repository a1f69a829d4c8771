package io.seqsync.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The identity provider's settings: none without a JWKS URL; with one, the issuer and audience required. */
class IdentityProviderSettingsTest {
  private static final Map<String, String> PROVIDER = Map.of(
      "auth.jwks-url", "https://idp.example/realms/chat/protocol/openid-connect/certs",
      "auth.issuer", "https://idp.example/realms/chat", "auth.audience", "seqsync");

  @Test
  void noneWithoutAJwksUrl() {
    assertThat(ConfigLoader.of(Map.of()).auth().identityProvider()).isEmpty();
  }

  @Test
  void defaultsAndOverrides() {
    IdentityProviderSettings defaults = ConfigLoader.of(PROVIDER).auth().identityProvider().orElseThrow();
    assertThat(defaults).isEqualTo(new IdentityProviderSettings(
        URI.create("https://idp.example/realms/chat/protocol/openid-connect/certs"), "https://idp.example/realms/chat",
        "seqsync", "sub", "did", Duration.ofSeconds(60), "ops", "seqsync-ops"));
    Map<String, String> environment = Map.of("SEQSYNC_AUTH_JWKS_URL", "http://127.0.0.1:8180/jwks",
        "SEQSYNC_AUTH_ISSUER", "iss", "SEQSYNC_AUTH_AUDIENCE", "aud", "SEQSYNC_AUTH_USER_CLAIM", "seqsync_uid",
        "SEQSYNC_AUTH_DEVICE_CLAIM", "device", "SEQSYNC_AUTH_CLOCK_SKEW", "5s",
        "SEQSYNC_AUTH_OPS_CLAIM", "realm_access.roles", "SEQSYNC_AUTH_OPS_ROLE", "chat-ops");
    assertThat(ConfigLoader.load(environment, Optional.empty()).auth().identityProvider()).contains(
        new IdentityProviderSettings(URI.create("http://127.0.0.1:8180/jwks"), "iss", "aud", "seqsync_uid", "device",
            Duration.ofSeconds(5), "realm_access.roles", "chat-ops"));
  }

  @Test
  void refusedWhenIncompleteOrMalformed() {
    assertRefused(Map.of("auth.issuer", ""), "auth.issuer is required");
    assertRefused(Map.of("auth.audience", " "), "auth.audience is required");
    assertRefused(Map.of("auth.jwks-url", "idp.example/certs"), "auth.jwks-url must be an http(s) URL");
    assertRefused(Map.of("auth.jwks-url", "file:///etc/passwd"), "auth.jwks-url must be an http(s) URL");
    assertRefused(Map.of("auth.jwks-url", "https://exa mple"), "auth.jwks-url must be a URL");
    assertRefused(Map.of("auth.jwks-url", "http://idp.example/certs"), "auth.jwks-url must be https");
    assertRefused(Map.of("auth.jwks-url", "http://10.0.0.7:8180/certs"), "auth.jwks-url must be https");
    assertRefused(Map.of("auth.clock-skew", "11m"), "auth.clock-skew must be 0s..10m");
    assertRefused(Map.of("auth.clock-skew", "soon"), "auth.clock-skew must be a duration");
  }

  @Test
  void plainHttpOnlyOnLoopback() {
    for (String url : new String[] {"http://localhost:8180/jwks", "http://127.0.0.1/jwks", "http://[::1]:8180/jwks"}) {
      Map<String, String> settings = new HashMap<>(PROVIDER);
      settings.put("auth.jwks-url", url);
      assertThat(ConfigLoader.of(settings).auth().identityProvider()).isPresent();
    }
  }

  private static void assertRefused(Map<String, String> change, String message) {
    Map<String, String> settings = new HashMap<>(PROVIDER);
    settings.putAll(change);
    assertThatThrownBy(() -> ConfigLoader.of(settings)).isInstanceOf(ConfigException.class).hasMessageContaining(message);
  }
}
