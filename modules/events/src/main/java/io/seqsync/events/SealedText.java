package io.seqsync.events;

import java.util.Optional;

/**
 * A text sealed under a content key (crypto-shredding, docs/design.md, "Erasure"): what a message's
 * content, an edit's content or a draft's text is in every topic. The form is
 * {@code \u0001s1.<keyId>.<base64url(nonce | ciphertext | tag)>}: it starts with a control
 * character no client text may start with (the ingress refuses it), so a sealed text is never
 * mistaken for a plain one. The key lives in PostgreSQL's key store, not in the log; once it is
 * deleted the text reads as erased. Stateless.
 */
public final class SealedText {
  /** What every sealed text starts with. */
  public static final String PREFIX = "\u0001s1.";
  /** The length of a key id: 16 random bytes in unpadded base64url. */
  public static final int KEY_ID_LENGTH = 22;
  /** AES-GCM's nonce and tag: what sealing adds to the plaintext's bytes. */
  public static final int OVERHEAD_BYTES = 12 + 16;

  private SealedText() {}

  public static boolean isSealed(String text) {
    return text != null && text.startsWith(PREFIX);
  }

  /** The key id a sealed text names, or empty for a text that is not sealed (or malformed). */
  public static Optional<String> keyId(String text) {
    if (!isSealed(text) || text.length() < PREFIX.length() + KEY_ID_LENGTH + 1
        || text.charAt(PREFIX.length() + KEY_ID_LENGTH) != '.') {
      return Optional.empty();
    }
    return Optional.of(text.substring(PREFIX.length(), PREFIX.length() + KEY_ID_LENGTH));
  }

  /** The base64url body (nonce, ciphertext, tag) of a sealed text whose {@link #keyId} is present. */
  public static String body(String text) {
    return text.substring(PREFIX.length() + KEY_ID_LENGTH + 1);
  }

  /** A sealed text from its parts. */
  public static String of(String keyId, String body) {
    return PREFIX + keyId + "." + body;
  }

  /** The longest sealed text of a plaintext of at most {@code plainBytes} UTF-8 bytes. */
  public static int maxLength(int plainBytes) {
    long sealedBytes = (long) plainBytes + OVERHEAD_BYTES;
    long base64 = (sealedBytes * 4 + 2) / 3;
    return (int) Math.min(Integer.MAX_VALUE, PREFIX.length() + KEY_ID_LENGTH + 1 + base64);
  }
}
