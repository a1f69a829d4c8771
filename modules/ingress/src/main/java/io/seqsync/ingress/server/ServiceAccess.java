package io.seqsync.ingress.server;

import io.seqsync.ingress.auth.Authentication;
import io.seqsync.ingress.auth.InvalidTokenException;
import io.seqsync.ingress.auth.Service;
import io.seqsync.ingress.auth.TokenVerifier;
import io.seqsync.ingress.http.ApiException;
import io.seqsync.ingress.http.ApiRequest;
import io.seqsync.ingress.http.Authenticator;

/**
 * Who may call the server API: the bearer of a service token ({@link TokenVerifier#service}). No
 * token or one that is not valid: 401; a valid token that is not a service's (a user's, an
 * operator's): 403 {@code not_a_service}. Thread-safe.
 */
public final class ServiceAccess implements Authenticator<Service> {
  private final TokenVerifier tokens;

  public ServiceAccess(TokenVerifier tokens) {
    this.tokens = tokens;
  }

  @Override
  public Service authenticate(ApiRequest request) {
    String token = Authentication.bearerToken(request.header("Authorization"));
    try {
      return tokens.service(token).orElseThrow(() -> ApiException.forbidden("not_a_service",
          "the server API takes a service token; this one is a user's (docs/api.md, \"Server API\")"));
    } catch (InvalidTokenException e) {
      throw ApiException.unauthorized(e.code(), e.getMessage());
    }
  }
}
