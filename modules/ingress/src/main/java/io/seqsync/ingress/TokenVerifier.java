package io.seqsync.ingress;

/** Turns a bearer token into its caller. Implementations are thread-safe. */
@FunctionalInterface
public interface TokenVerifier {
  /** The caller of a valid token; throws {@link InvalidTokenException} for any other. */
  Caller verify(String token);
}
