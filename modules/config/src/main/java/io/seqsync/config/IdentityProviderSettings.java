package io.seqsync.config;

import static io.seqsync.config.SeqsyncConfig.require;
import static io.seqsync.config.SeqsyncConfig.isLoopback;

import java.net.URI;
import java.time.Duration;
import java.util.Locale;

/**
 * An identity provider's tokens (RS256, ES256), verified with the keys its {@code jwksUrl}
 * publishes: {@code iss} must be {@code issuer} and {@code aud} hold {@code audience}; the user id
 * is the claim {@code userClaim}, the device id the claim {@code deviceClaim}; {@code exp} and
 * {@code nbf} are allowed {@code clockSkew} (the provider's clock is not ours). An operator's
 * token has the claim {@code opsClaim} (a dotted path reaches into objects) true, equal to
 * {@code opsRole} or a list holding it.
 */
public record IdentityProviderSettings(URI jwksUrl, String issuer, String audience, String userClaim, String deviceClaim,
    Duration clockSkew, String opsClaim, String opsRole) {
  public IdentityProviderSettings {
    String scheme = jwksUrl.getScheme() == null ? "" : jwksUrl.getScheme().toLowerCase(Locale.ROOT);
    require(jwksUrl.isAbsolute() && (scheme.equals("https") || scheme.equals("http")) && jwksUrl.getHost() != null,
        "auth.jwks-url must be an http(s) URL, got '" + jwksUrl + "'");
    // Keys fetched over plain http could be swapped on the way, and with them every token accepted.
    require(scheme.equals("https") || isLoopback(jwksUrl.getHost()),
        "auth.jwks-url must be https (plain http only on loopback), got '" + jwksUrl + "'");
    require(!issuer.isBlank(), "auth.issuer is required with auth.jwks-url: tokens of any other issuer are refused");
    require(!audience.isBlank(), "auth.audience is required with auth.jwks-url: tokens for other clients are refused");
    require(!userClaim.isBlank() && !deviceClaim.isBlank(), "auth.user-claim and auth.device-claim must not be blank");
    require(!clockSkew.isNegative() && clockSkew.compareTo(Duration.ofMinutes(10)) <= 0,
        "auth.clock-skew must be 0s..10m");
    require(!opsClaim.isBlank() && !opsRole.isBlank(), "auth.ops-claim and auth.ops-role must not be blank");
  }
}
