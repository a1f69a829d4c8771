package io.seqsync.ingress.auth;

import io.seqsync.events.UserIds;
import io.seqsync.ingress.http.ApiException;
import io.seqsync.ingress.http.ApiRequest;
import io.seqsync.ingress.http.Authenticator;

/**
 * Every {@code /v1} request carries {@code Authorization: Bearer <token>} (the push stream may
 * carry it as {@code ?access_token=} instead); the caller is the one its token names. Missing,
 * forged or expired tokens answer 401, and so do tokens of a device that signed out after they were
 * issued ({@code token_revoked}, {@link Revocations}).
 */
public final class Authentication implements Authenticator<Caller> {
  private static final String BEARER = "bearer ";
  public static final String STREAM_PATH = "/v1/stream";

  private final TokenVerifier tokens;
  private final Revocations revocations;

  public Authentication(TokenVerifier tokens, Revocations revocations) {
    this.tokens = tokens;
    this.revocations = revocations;
  }

  /** The caller named by the request's bearer header; a 401 when it has none that verifies. */
  @Override
  public Caller authenticate(ApiRequest request) {
    return verify(request.header("Authorization"), null);
  }

  /**
   * The caller named by a bearer header, or else by {@code queryToken} (browsers cannot set
   * headers on a WebSocket: the stream takes {@code ?access_token=}); a 401 when neither verifies.
   */
  public Caller verify(String header, String queryToken) {
    return token(header, queryToken).caller();
  }

  /** As {@link #verify}, with the token's issue and expiry times (the push stream closes at its expiry). */
  public VerifiedToken token(String header, String queryToken) {
    if ((header == null || header.isBlank()) && queryToken != null && !queryToken.isBlank()) {
      return verifyToken(queryToken.strip());
    }
    return verifyToken(bearerToken(header));
  }

  /** The token of an {@code Authorization: Bearer <token>} header; a 401 when there is none. */
  public static String bearerToken(String header) {
    if (header == null || header.isBlank()) {
      throw ApiException.unauthorized("missing_token", "Authorization: Bearer <token> is required");
    }
    if (header.length() <= BEARER.length() || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
      throw ApiException.unauthorized("invalid_token", "the Authorization header must be Bearer <token>");
    }
    return header.substring(BEARER.length()).strip();
  }

  private VerifiedToken verifyToken(String token) {
    VerifiedToken verified;
    try {
      verified = tokens.token(token);
    } catch (InvalidTokenException e) {
      throw ApiException.unauthorized(e.code(), e.getMessage());
    }
    if (verified.caller().userId() == UserIds.SYSTEM) {
      throw ApiException.unauthorized("invalid_user_claim", "the token names the system sender, which is no user");
    }
    if (revocations.revoked(verified)) {
      throw ApiException.unauthorized("token_revoked", "the device signed out: sign in again");
    }
    return verified;
  }
}
