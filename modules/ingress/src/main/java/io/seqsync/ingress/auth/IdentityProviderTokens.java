package io.seqsync.ingress.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.jwk.source.RateLimitReachedException;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import com.nimbusds.jwt.proc.ExpiredJWTException;
import io.seqsync.config.IdentityProviderSettings;
import io.seqsync.events.DeviceIds;
import io.seqsync.events.UserIds;
import io.seqsync.ingress.http.ApiException;
import java.net.MalformedURLException;
import java.text.ParseException;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Tokens of an identity provider (Keycloak, Auth0, Cognito, ...): RS256 or ES256 JWTs verified
 * with the public keys its JWKS URL publishes (nimbus-jose-jwt: no key parsing of our own). Only
 * those two algorithms are accepted, so neither {@code alg: none} nor an HS256 token signed with a
 * public key as its secret (algorithm confusion) verifies here. {@code iss} must be the configured
 * issuer and {@code aud} hold the configured audience; {@code exp} is required; {@code exp} and
 * {@code nbf} are allowed the configured clock skew. The keys are cached (5 min) and fetched again
 * when a token names a {@code kid} the cache lacks (a rotation), at most twice per
 * {@code refreshInterval}: a flood of made-up kids costs the provider nothing. The user id is the
 * configured user claim (a positive 64-bit decimal, as a string or an integer), the device id the
 * device claim; a token that verifies but names no valid user or device is refused with its own
 * code. Thread-safe.
 */
public final class IdentityProviderTokens implements TokenVerifier {
  /** The least time between two fetches of the JWKS when tokens name unknown keys. */
  public static final Duration REFRESH_INTERVAL = Duration.ofSeconds(30);
  private static final Duration CACHE_TTL = Duration.ofMinutes(5);
  private static final int HTTP_TIMEOUT_MS = 5_000;
  private static final int MAX_JWKS_BYTES = 512 * 1024;

  private final IdentityProviderSettings settings;
  private final DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
  private final VerifiedTokens verified = new VerifiedTokens();

  private final String serviceClaim;
  private final String serviceRole;

  /** {@code serviceClaim} and {@code serviceRole}: what makes a token a service's ({@code auth.service-claim}, {@code auth.service-role}). */
  public IdentityProviderTokens(IdentityProviderSettings settings, String serviceClaim, String serviceRole) {
    this.settings = settings;
    this.serviceClaim = serviceClaim;
    this.serviceRole = serviceRole;
    JWKSource<SecurityContext> keys;
    try {
      keys = JWKSourceBuilder.<SecurityContext>create(settings.jwksUrl().toURL(),
              new DefaultResourceRetriever(HTTP_TIMEOUT_MS, HTTP_TIMEOUT_MS, MAX_JWKS_BYTES))
          .cache(CACHE_TTL.toMillis(), HTTP_TIMEOUT_MS)
          .rateLimited(REFRESH_INTERVAL.toMillis())
          .build();
    } catch (MalformedURLException e) {
      throw new IllegalArgumentException("auth.jwks-url: " + e.getMessage(), e);
    }
    processor.setJWSKeySelector(new JWSVerificationKeySelector<>(Set.of(JWSAlgorithm.RS256, JWSAlgorithm.ES256), keys));
    DefaultJWTClaimsVerifier<SecurityContext> claims = new DefaultJWTClaimsVerifier<>(Set.of(settings.audience()),
        new JWTClaimsSet.Builder().issuer(settings.issuer()).build(), Set.of("exp"), Set.of());
    claims.setMaxClockSkew(Math.toIntExact(settings.clockSkew().toSeconds()));
    processor.setJWTClaimsSetVerifier(claims);
  }

  @Override
  public VerifiedToken token(String token) {
    return verified.token(token, () -> {
      JWTClaimsSet claims = claims(token);
      if (grants(claim(claims.getClaims(), serviceClaim), serviceRole)) {
        throw ServiceNames.notAUser();
      }
      Long userId = userId(claims.getClaim(settings.userClaim()));
      if (userId == null) {
        throw new InvalidTokenException("invalid_user_claim", "the token's claim '" + settings.userClaim()
            + "' must be the user id: a positive 64-bit integer in decimal");
      }
      Object device = claims.getClaim(settings.deviceClaim());
      if (!(device instanceof String deviceId) || !DeviceIds.isValid(deviceId)) {
        throw new InvalidTokenException("invalid_device_claim", "the token's claim '" + settings.deviceClaim()
            + "' must be the device id: 1-64 characters of A-Za-z0-9._-");
      }
      long expires = claims.getExpirationTime().getTime() + settings.clockSkew().toMillis();
      long issuedAt = claims.getIssueTime() == null ? 0 : claims.getIssueTime().getTime();
      return new VerifiedToken(new Caller(userId, deviceId), issuedAt, expires);
    });
  }

  @Override
  public Optional<Operator> operator(String token) {
    JWTClaimsSet claims = claims(token);
    if (!grants(claim(claims.getClaims(), settings.opsClaim()), settings.opsRole())) {
      return Optional.empty();
    }
    return Optional.of(new Operator(claims.getSubject() == null ? "operator" : claims.getSubject()));
  }

  @Override
  public Optional<Service> service(String token) {
    JWTClaimsSet claims = claims(token);
    return grants(claim(claims.getClaims(), serviceClaim), serviceRole) ? ServiceNames.service(claims.getSubject())
        : Optional.empty();
  }

  private JWTClaimsSet claims(String token) {
    try {
      return processor.process(token, null);
    } catch (ExpiredJWTException e) {
      throw new InvalidTokenException("token_expired", "the token has expired");
    } catch (RateLimitReachedException e) {
      throw new InvalidTokenException("invalid_token", "the token names a key the identity provider does not publish");
    } catch (KeySourceException e) {
      throw ApiException.unavailable("identity_provider_unavailable",
          "the identity provider's keys cannot be fetched; retry later");
    } catch (ParseException | BadJOSEException | JOSEException e) {
      throw new InvalidTokenException("invalid_token", "the token is not valid");
    }
  }

  // A decimal string or an integer number; null for anything else or a non-positive id.
  private static Long userId(Object claim) {
    if (claim instanceof String text) {
      return UserIds.parse(text).orElse(null);
    }
    if (claim instanceof Long number && number > 0) {
      return number;
    }
    if (claim instanceof Integer number && number > 0) {
      return number.longValue();
    }
    return null;
  }

  // The claim named so at the top level, else by a dotted path into objects (Keycloak's realm_access.roles).
  private static Object claim(Map<String, Object> claims, String name) {
    if (claims.containsKey(name) || !name.contains(".")) {
      return claims.get(name);
    }
    Object current = claims;
    for (String part : name.split("\\.")) {
      if (!(current instanceof Map<?, ?> object)) {
        return null;
      }
      current = object.get(part);
    }
    return current;
  }

  private static boolean grants(Object claim, String role) {
    return Boolean.TRUE.equals(claim) || role.equals(claim)
        || (claim instanceof Collection<?> values && values.contains(role));
  }
}
