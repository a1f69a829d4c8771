package io.seqsync.ingress.auth;

import io.seqsync.ingress.http.ApiException;

import io.javalin.http.Context;

/**
 * Every {@code /v1} request carries {@code Authorization: Bearer <token>}; the verified caller is
 * kept on the request for the handlers. Missing, forged or expired tokens answer 401.
 */
public final class Authentication {
  private static final String CALLER = "seqsync.caller";
  private static final String BEARER = "bearer ";
  public static final String STREAM_PATH = "/v1/stream";

  private final TokenVerifier tokens;

  public Authentication(TokenVerifier tokens) {
    this.tokens = tokens;
  }

  public void authenticate(Context ctx) {
    // Browsers cannot set headers on a WebSocket: the stream also takes ?access_token=.
    String queryToken = ctx.path().equals(STREAM_PATH) ? ctx.queryParam("access_token") : null;
    ctx.attribute(CALLER, verify(ctx.header("Authorization"), queryToken));
  }

  /** The caller named by a bearer header, or else by {@code queryToken}; a 401 when neither verifies. */
  public Caller verify(String header, String queryToken) {
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

  private Caller verifyToken(String token) {
    try {
      return tokens.verify(token);
    } catch (InvalidTokenException e) {
      throw ApiException.unauthorized(e.code(), e.getMessage());
    }
  }

  /** The caller of an authenticated request. */
  public static Caller caller(Context ctx) {
    Caller caller = ctx.attribute(CALLER);
    if (caller == null) {
      throw new IllegalStateException("no caller: the route is not behind authentication");
    }
    return caller;
  }
}
