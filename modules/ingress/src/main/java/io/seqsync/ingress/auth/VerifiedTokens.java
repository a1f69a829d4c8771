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

  /** A token's caller and when it expires. */
  record Verified(Caller caller, long expiresAtMillis) {}

  private final Map<String, Verified> verified = new ConcurrentHashMap<>();

  /** The caller of {@code token}: remembered, or verified by {@code verify} (which throws for a bad one). */
  Caller caller(String token, Supplier<Verified> verify) {
    Verified known = verified.get(token);
    if (known != null) {
      if (System.currentTimeMillis() < known.expiresAtMillis()) {
        return known.caller();
      }
      verified.remove(token);
    }
    Verified fresh = verify.get();
    if (verified.size() >= CAPACITY) {
      verified.clear(); // bounded: the next requests verify again
    }
    verified.put(token, fresh);
    return fresh.caller();
  }
}
