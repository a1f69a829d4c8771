package io.seqsync.ingress.auth;

import java.util.Optional;

/** Turns a bearer token into its caller, or its operator. Implementations are thread-safe. */
public interface TokenVerifier {
  /** The caller of a valid token; throws {@link InvalidTokenException} for any other. */
  Caller verify(String token);

  /**
   * The operator of a valid token that carries the ops claim; empty for a valid token without it
   * (the dashboard answers 403); throws {@link InvalidTokenException} for a token that is not valid.
   * An operator's token need not name a user or a device.
   */
  Optional<Operator> operator(String token);
}
