package io.seqsync.config;

import java.time.Duration;
import java.util.Optional;

/**
 * Tokens: HS256 JWTs signed with {@code secret}. Empty secret: the development secret, allowed
 * only when every server is embedded (see the app's start-up check). {@code identityProvider}:
 * RS256 and ES256 tokens verified against its JWKS, besides; empty: none accepted.
 */
public record AuthSettings(Optional<String> secret, Duration demoTokenTtl,
    Optional<IdentityProviderSettings> identityProvider) {
  /** No secret configured: tokens are signed with the published development secret. */
  public boolean developmentSecret() {
    return secret.isEmpty();
  }
}
