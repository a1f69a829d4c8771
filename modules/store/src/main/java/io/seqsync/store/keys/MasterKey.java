package io.seqsync.store.keys;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * The key that wraps content keys. Its id (the first 8 bytes of its SHA-256, in hex) is stored
 * with each wrapped key, so a rotation finds what the old key still wraps. Immutable.
 */
public record MasterKey(String id, SecretKey key) {
  /** A key from its base64 text: 32 bytes (AES-256), else an IllegalArgumentException. */
  public static MasterKey parse(String base64) {
    byte[] raw;
    try {
      raw = Base64.getDecoder().decode(base64.strip());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("a master key is base64", e);
    }
    if (raw.length != Aead.KEY_BYTES) {
      throw new IllegalArgumentException("a master key is 32 bytes (AES-256), base64: got " + raw.length + " bytes");
    }
    return of(raw);
  }

  static MasterKey of(byte[] raw) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(raw);
      return new MasterKey(HexFormat.of().formatHex(digest, 0, 8), new SecretKeySpec(raw, "AES"));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A fresh random key, as base64 text. */
  public static String generate() {
    return Base64.getEncoder().encodeToString(Aead.randomBytes(Aead.KEY_BYTES));
  }

  byte[] wrap(byte[] contentKey, String keyId) {
    return Aead.seal(key, contentKey, keyId.getBytes(StandardCharsets.US_ASCII));
  }

  byte[] unwrap(byte[] wrapped, String keyId) throws GeneralSecurityException {
    return Aead.open(key, wrapped, keyId.getBytes(StandardCharsets.US_ASCII));
  }

  @Override
  public String toString() {
    return "MasterKey[" + id + "]";
  }
}
