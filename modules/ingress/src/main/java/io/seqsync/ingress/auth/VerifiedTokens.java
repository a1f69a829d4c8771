package io.seqsync.ingress.auth;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Tokens that verified, remembered (up to {@link #CAPACITY}) until they expire, so that a client's
 * every request costs no signature check. Only tokens that verified are kept, so a forged one
 * (other signature, other text) never hits; expiry is checked again on every hit. Thread-safe.
 */
final class VerifiedTokens {
  /** Verified tokens kept: a client sends the same token with every request. */
  static final int CAPACITY = 10_000;

  private final Map<String, VerifiedToken> verified = new ConcurrentHashMap<>();

  /** {@code token} verified: remembered, or verified by {@code verify} (which throws for a bad one). */
  VerifiedToken token(String token, Supplier<VerifiedToken> verify) {
    VerifiedToken known = verified.get(token);
    if (known != null) {
      if (System.currentTimeMillis() < known.expiresAtMillis()) {
        return known;
      }
      verified.remove(token);
    }
    VerifiedToken fresh = verify.get();
    if (verified.size() >= CAPACITY) {
      verified.clear(); // bounded: the next requests verify again
    }
    verified.put(token, fresh);
    return fresh;
  }
}
