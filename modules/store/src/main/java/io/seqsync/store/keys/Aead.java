package io.seqsync.store.keys;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * AES-256-GCM with a random 96-bit nonce, JDK crypto only: {@code nonce | ciphertext | tag}. The
 * associated data binds a sealed value to what names it (a key id), so a value moved to another
 * name does not open. Thread-safe (a cipher per thread).
 */
final class Aead {
  static final int KEY_BYTES = 32;
  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final ThreadLocal<Cipher> CIPHERS = ThreadLocal.withInitial(() -> {
    try {
      return Cipher.getInstance("AES/GCM/NoPadding");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-GCM is not available", e);
    }
  });

  private Aead() {}

  static byte[] randomBytes(int length) {
    byte[] bytes = new byte[length];
    RANDOM.nextBytes(bytes);
    return bytes;
  }

  static byte[] seal(SecretKey key, byte[] plain, byte[] associated) {
    return seal(CIPHERS.get(), key, randomBytes(NONCE_BYTES), plain, associated);
  }

  /**
   * Sealed with a nonce derived from the plaintext (HMAC-SHA256 under the key, SIV-like): the same
   * plaintext under the same key seals to the same value, so a sealed value can be compared for
   * equality without being opened; a distinct plaintext gets a distinct nonce.
   */
  static byte[] sealDeterministic(SecretKey key, byte[] plain, byte[] associated) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key.getEncoded(), "HmacSHA256"));
      mac.update(associated);
      // A cipher of its own: the JDK's GCM refuses to be initialized again with the key and nonce it last used.
      return seal(Cipher.getInstance("AES/GCM/NoPadding"), key, Arrays.copyOf(mac.doFinal(plain), NONCE_BYTES), plain,
          associated);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HMAC-SHA256 or AES-GCM is not available", e);
    }
  }

  private static byte[] seal(Cipher cipher, SecretKey key, byte[] nonce, byte[] plain, byte[] associated) {
    try {
      cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
      cipher.updateAAD(associated);
      byte[] sealed = cipher.doFinal(plain);
      return ByteBuffer.allocate(NONCE_BYTES + sealed.length).put(nonce).put(sealed).array();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("sealing failed", e);
    }
  }

  /** The plaintext; throws for a value that was not sealed by {@code key} under {@code associated}. */
  static byte[] open(SecretKey key, byte[] sealed, byte[] associated) throws GeneralSecurityException {
    if (sealed.length < NONCE_BYTES + TAG_BITS / 8) {
      throw new GeneralSecurityException("sealed value too short");
    }
    Cipher cipher = CIPHERS.get();
    cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, sealed, 0, NONCE_BYTES));
    cipher.updateAAD(associated);
    return cipher.doFinal(sealed, NONCE_BYTES, sealed.length - NONCE_BYTES);
  }
}
