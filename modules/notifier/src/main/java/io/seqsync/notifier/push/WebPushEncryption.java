package io.seqsync.notifier.push;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPoint;
import java.security.spec.ECPrivateKeySpec;
import java.security.spec.ECPublicKeySpec;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.KeyAgreement;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Message encryption for Web Push (RFC 8291) in the aes128gcm content coding (RFC 8188), with the
 * JDK's ECDH on P-256, HMAC-SHA-256 (HKDF) and AES-128-GCM: one record, the whole payload. Each
 * message gets a fresh sender key pair and salt. Stateless; thread-safe.
 */
public final class WebPushEncryption {
  private static final int RECORD_SIZE = 4096;
  private static final ECParameterSpec P256 = p256();
  private static final SecureRandom RANDOM = new SecureRandom();

  private WebPushEncryption() {}

  /** Encrypts {@code plaintext} to the subscription's {@code p256dh} (65 bytes, uncompressed) and {@code auth} (16 bytes). */
  public static byte[] encrypt(byte[] plaintext, byte[] p256dh, byte[] auth) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(P256, RANDOM);
      byte[] salt = new byte[16];
      RANDOM.nextBytes(salt);
      return encrypt(plaintext, p256dh, auth, generator.generateKeyPair(), salt);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("P-256 is not available", e);
    }
  }

  /** As {@link #encrypt(byte[], byte[], byte[])} with the sender's key pair and salt given (RFC 8291's test vector). */
  static byte[] encrypt(byte[] plaintext, byte[] p256dh, byte[] auth, KeyPair sender, byte[] salt)
      throws GeneralSecurityException {
    byte[] senderPublic = uncompressed((ECPublicKey) sender.getPublic());
    byte[] prk = hmac(salt, inputKey((ECPrivateKey) sender.getPrivate(), p256dh, auth, p256dh, senderPublic));
    byte[] cek = Arrays.copyOf(hmac(prk, info("Content-Encoding: aes128gcm")), 16);
    byte[] nonce = Arrays.copyOf(hmac(prk, info("Content-Encoding: nonce")), 12);
    byte[] padded = Arrays.copyOf(plaintext, plaintext.length + 1);
    padded[plaintext.length] = 2; // the last (and only) record's delimiter
    Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
    cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(cek, "AES"), new GCMParameterSpec(128, nonce));
    byte[] ciphertext = cipher.doFinal(padded);
    return ByteBuffer.allocate(16 + 4 + 1 + senderPublic.length + ciphertext.length)
        .put(salt).putInt(RECORD_SIZE).put((byte) senderPublic.length).put(senderPublic).put(ciphertext).array();
  }

  /**
   * Decrypts a body {@link #encrypt} made, as the user agent does with its key pair and auth
   * secret: for tests and for checking the coding end to end.
   */
  public static byte[] decrypt(byte[] body, ECPrivateKey receiver, byte[] receiverPublic, byte[] auth)
      throws GeneralSecurityException {
    ByteBuffer buffer = ByteBuffer.wrap(body);
    byte[] salt = new byte[16];
    buffer.get(salt);
    buffer.getInt();
    byte[] senderPublic = new byte[buffer.get() & 0xff];
    buffer.get(senderPublic);
    byte[] ciphertext = new byte[buffer.remaining()];
    buffer.get(ciphertext);
    byte[] prk = hmac(salt, inputKey(receiver, senderPublic, auth, receiverPublic, senderPublic));
    Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
    cipher.init(Cipher.DECRYPT_MODE, new SecretKeySpec(Arrays.copyOf(hmac(prk, info("Content-Encoding: aes128gcm")), 16),
        "AES"), new GCMParameterSpec(128, Arrays.copyOf(hmac(prk, info("Content-Encoding: nonce")), 12)));
    byte[] padded = cipher.doFinal(ciphertext);
    int end = padded.length - 1;
    while (end >= 0 && padded[end] == 0) {
      end--;
    }
    if (end < 0 || padded[end] != 2) {
      throw new GeneralSecurityException("not a last record: no delimiter 2");
    }
    return Arrays.copyOf(padded, end);
  }

  // IKM = HKDF(auth, ecdh(own, other), "WebPush: info" 0 ua_public as_public, 32): the same on both sides.
  private static byte[] inputKey(ECPrivateKey own, byte[] otherPublic, byte[] auth, byte[] uaPublic, byte[] asPublic)
      throws GeneralSecurityException {
    KeyAgreement agreement = KeyAgreement.getInstance("ECDH");
    agreement.init(own);
    agreement.doPhase(publicKey(otherPublic), true);
    byte[] prk = hmac(auth, agreement.generateSecret());
    byte[] label = "WebPush: info".getBytes(StandardCharsets.US_ASCII);
    ByteBuffer keyInfo = ByteBuffer.allocate(label.length + 1 + uaPublic.length + asPublic.length + 1)
        .put(label).put((byte) 0).put(uaPublic).put(asPublic).put((byte) 1);
    return hmac(prk, keyInfo.array());
  }

  private static byte[] info(String label) {
    byte[] text = label.getBytes(StandardCharsets.US_ASCII);
    byte[] info = Arrays.copyOf(text, text.length + 2);
    info[text.length + 1] = 1; // 0x00, then HKDF-Expand's first counter byte 0x01
    return info;
  }

  static byte[] hmac(byte[] key, byte[] data) throws GeneralSecurityException {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(key, "HmacSHA256"));
    return mac.doFinal(data);
  }

  /** A P-256 public key from its uncompressed point (0x04, x, y). */
  public static ECPublicKey publicKey(byte[] uncompressed) throws GeneralSecurityException {
    if (uncompressed.length != 65 || uncompressed[0] != 4) {
      throw new GeneralSecurityException("not an uncompressed P-256 point");
    }
    ECPoint point = new ECPoint(new BigInteger(1, Arrays.copyOfRange(uncompressed, 1, 33)),
        new BigInteger(1, Arrays.copyOfRange(uncompressed, 33, 65)));
    return (ECPublicKey) KeyFactory.getInstance("EC").generatePublic(new ECPublicKeySpec(point, P256));
  }

  /** A P-256 private key from its scalar (32 bytes). */
  public static ECPrivateKey privateKey(byte[] scalar) throws GeneralSecurityException {
    return (ECPrivateKey) KeyFactory.getInstance("EC").generatePrivate(new ECPrivateKeySpec(new BigInteger(1, scalar), P256));
  }

  /** The uncompressed point (65 bytes) of {@code key}. */
  public static byte[] uncompressed(ECPublicKey key) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(65);
    out.write(4);
    out.writeBytes(fixed(key.getW().getAffineX()));
    out.writeBytes(fixed(key.getW().getAffineY()));
    return out.toByteArray();
  }

  private static byte[] fixed(BigInteger value) {
    byte[] bytes = value.toByteArray();
    byte[] fixed = new byte[32];
    int copy = Math.min(bytes.length, 32);
    System.arraycopy(bytes, bytes.length - copy, fixed, 32 - copy, copy);
    return fixed;
  }

  private static ECParameterSpec p256() {
    try {
      AlgorithmParameters parameters = AlgorithmParameters.getInstance("EC");
      parameters.init(new ECGenParameterSpec("secp256r1"));
      return parameters.getParameterSpec(ECParameterSpec.class);
    } catch (GeneralSecurityException e) {
      throw new ExceptionInInitializerError(e);
    }
  }
}
