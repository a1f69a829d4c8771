package io.seqsync.ingress.auth;

import com.auth0.jwt.JWT;
import com.auth0.jwt.JWTVerifier;
import com.auth0.jwt.algorithms.Algorithm;
import com.auth0.jwt.exceptions.JWTVerificationException;
import com.auth0.jwt.exceptions.TokenExpiredException;
import com.auth0.jwt.interfaces.DecodedJWT;
import io.seqsync.events.DeviceIds;
import io.seqsync.events.UserIds;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * HS256 JWTs signed with the server's secret (API.md: Identity): claims {@code sub} (the user id as
 * a decimal string), {@code did} (the device id) and {@code exp}, all required. An operator's token
 * has {@code ops: true} and {@code exp} instead, and need not name a user or device (operators are
 * not chat users). Tokens that verified are remembered until they expire ({@link VerifiedTokens}),
 * so a client's every request costs no HMAC. Thread-safe.
 */
public final class Tokens implements TokenVerifier {
  /**
   * The development secret: only for a fully embedded stack on one machine (the app refuses it
   * otherwise). Anyone can read it here, so tokens signed with it prove nothing.
   */
  public static final String DEV_SECRET = "seqsync-development-secret-do-not-use-in-production";

  /** RFC 7518 3.2: an HS256 key is at least as long as the hash, 256 bits. */
  public static final int MIN_SECRET_BYTES = 32;

  static final String DEVICE_CLAIM = "did";
  static final String OPS_CLAIM = "ops";
  static final String SERVICE_CLAIM = "service";
  private static final String OPERATOR_SUBJECT = "operator";

  private final Algorithm algorithm;
  private final JWTVerifier anyVerifier;
  private final VerifiedTokens verified = new VerifiedTokens();

  public Tokens(String secret) {
    if (secret == null || secret.getBytes(StandardCharsets.UTF_8).length < MIN_SECRET_BYTES) {
      throw new IllegalArgumentException("the token secret must have at least " + MIN_SECRET_BYTES + " bytes");
    }
    this.algorithm = Algorithm.HMAC256(secret);
    this.anyVerifier = JWT.require(algorithm).withClaimPresence("exp").build();
  }

  /** Tokens signed with the configured secret, or {@link #DEV_SECRET} when none is configured. */
  public static Tokens withSecret(Optional<String> secret) {
    return new Tokens(secret.orElse(DEV_SECRET));
  }

  /** A token for {@code userId} on {@code deviceId} that expires after {@code ttl}. */
  public String mint(long userId, String deviceId, Duration ttl) {
    if (ttl.isNegative() || ttl.isZero()) {
      throw new IllegalArgumentException("ttl must be positive");
    }
    return mint(userId, deviceId, Instant.now().plus(ttl));
  }

  /** A token for {@code userId} on {@code deviceId} that expires at {@code expiresAt}. */
  public String mint(long userId, String deviceId, Instant expiresAt) {
    if (userId <= 0) {
      throw new IllegalArgumentException("user ids are positive: " + userId);
    }
    if (!DeviceIds.isValid(deviceId)) {
      throw new IllegalArgumentException("device ids are 1-64 characters of A-Za-z0-9._-: " + deviceId);
    }
    return JWT.create()
        .withSubject(Long.toString(userId))
        .withClaim(DEVICE_CLAIM, deviceId)
        .withIssuedAt(Instant.now())
        .withExpiresAt(expiresAt)
        .sign(algorithm);
  }

  /** An operator's token ({@code ops: true}, no user or device) that expires after {@code ttl}. */
  public String mintOperator(Duration ttl) {
    return mintRole(OPERATOR_SUBJECT, OPS_CLAIM, ttl);
  }

  /** A service's token ({@code service: true}, the service's name as {@code sub}, no device) that expires after {@code ttl}. */
  public String mintService(String name, Duration ttl) {
    if (!ServiceNames.isValid(name)) {
      throw new IllegalArgumentException(ServiceNames.RULE + ": " + name);
    }
    return mintRole(name, SERVICE_CLAIM, ttl);
  }

  // A token of a role ({@code claim: true}) rather than of a user's device.
  private String mintRole(String subject, String claim, Duration ttl) {
    if (ttl.isNegative() || ttl.isZero()) {
      throw new IllegalArgumentException("ttl must be positive");
    }
    return JWT.create()
        .withSubject(subject)
        .withClaim(claim, true)
        .withIssuedAt(Instant.now())
        .withExpiresAt(Instant.now().plus(ttl))
        .sign(algorithm);
  }

  @Override
  public VerifiedToken token(String token) {
    return verified.token(token, () -> {
      // Claims checked below rather than by the verifier: a service's token is told apart first.
      DecodedJWT jwt = decode(anyVerifier, token);
      if (!jwt.getClaim(SERVICE_CLAIM).isMissing()) {
        throw ServiceNames.notAUser();
      }
      Optional<Long> userId = UserIds.parse(jwt.getSubject());
      String deviceId = jwt.getClaim(DEVICE_CLAIM).asString();
      if (userId.isEmpty() || !DeviceIds.isValid(deviceId)) {
        throw new InvalidTokenException("invalid_token", "the token does not name a valid user and device");
      }
      Instant issuedAt = jwt.getIssuedAtAsInstant();
      return new VerifiedToken(new Caller(userId.get(), deviceId), issuedAt == null ? 0 : issuedAt.toEpochMilli(),
          jwt.getExpiresAtAsInstant().toEpochMilli());
    });
  }

  @Override
  public Optional<Operator> operator(String token) {
    DecodedJWT jwt = decode(anyVerifier, token);
    Boolean ops = jwt.getClaim(OPS_CLAIM).asBoolean();
    return Boolean.TRUE.equals(ops)
        ? Optional.of(new Operator(jwt.getSubject() == null ? OPERATOR_SUBJECT : jwt.getSubject()))
        : Optional.empty();
  }

  @Override
  public Optional<Service> service(String token) {
    DecodedJWT jwt = decode(anyVerifier, token);
    return Boolean.TRUE.equals(jwt.getClaim(SERVICE_CLAIM).asBoolean()) ? ServiceNames.service(jwt.getSubject())
        : Optional.empty();
  }

  private static DecodedJWT decode(JWTVerifier verifier, String token) {
    try {
      return verifier.verify(token);
    } catch (TokenExpiredException e) {
      throw new InvalidTokenException("token_expired", "the token has expired");
    } catch (JWTVerificationException | IllegalArgumentException e) {
      throw new InvalidTokenException("invalid_token", "the token is not valid");
    }
  }
}
