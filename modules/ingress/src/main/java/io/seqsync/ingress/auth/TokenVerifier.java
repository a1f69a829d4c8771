package io.seqsync.ingress.auth;

import java.util.Optional;

/** Turns a bearer token into its caller, or its operator. Implementations are thread-safe. */
public interface TokenVerifier {
  /** A valid token's caller, issue and expiry times; throws {@link InvalidTokenException} for any other. */
  VerifiedToken token(String token);

  /** The caller of a valid token; throws {@link InvalidTokenException} for any other. */
  default Caller verify(String token) {
    return token(token).caller();
  }

  /**
   * The operator of a valid token that carries the ops claim; empty for a valid token without it
   * (the dashboard answers 403); throws {@link InvalidTokenException} for a token that is not valid.
   * An operator's token need not name a user or a device.
   */
  Optional<Operator> operator(String token);

  /**
   * The service of a valid service token; empty for a valid token that is not one (the server API
   * answers 403); throws {@link InvalidTokenException} for a token that is not valid.
   */
  Optional<Service> service(String token);
}
