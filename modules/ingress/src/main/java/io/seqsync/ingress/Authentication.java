package io.seqsync.ingress;

import io.javalin.http.Context;

/**
 * Every {@code /v1} request carries {@code Authorization: Bearer <token>}; the verified caller is
 * kept on the request for the handlers. Missing, forged or expired tokens answer 401.
 */
final class Authentication {
  private static final String CALLER = "seqsync.caller";
  private static final String BEARER = "bearer ";

  private final TokenVerifier tokens;

  Authentication(TokenVerifier tokens) {
    this.tokens = tokens;
  }

  void authenticate(Context ctx) {
    String header = ctx.header("Authorization");
    if (header == null || header.isBlank()) {
      throw ApiException.unauthorized("missing_token", "Authorization: Bearer <token> is required");
    }
    if (header.length() <= BEARER.length() || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
      throw ApiException.unauthorized("invalid_token", "the Authorization header must be Bearer <token>");
    }
    try {
      ctx.attribute(CALLER, tokens.verify(header.substring(BEARER.length()).strip()));
    } catch (InvalidTokenException e) {
      throw ApiException.unauthorized(e.code(), e.getMessage());
    }
  }

  /** The caller of an authenticated request. */
  static Caller caller(Context ctx) {
    Caller caller = ctx.attribute(CALLER);
    if (caller == null) {
      throw new IllegalStateException("no caller: the route is not behind authentication");
    }
    return caller;
  }
}
