package io.seqsync.notifier.webhooks;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The Standard Webhooks signature (standardwebhooks.com): {@code v1,} and the base64 of
 * HMAC-SHA256, keyed with the secret's bytes, of {@code id.timestamp.body}. Immutable.
 */
public final class WebhookSignature {
  private final SecretKeySpec key;

  public WebhookSignature(byte[] secret) {
    this.key = new SecretKeySpec(secret.clone(), "HmacSHA256");
  }

  /** The {@code webhook-signature} header's value for a message. */
  public String sign(String id, long timestampSeconds, byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key);
      mac.update((id + "." + timestampSeconds + ".").getBytes(StandardCharsets.UTF_8));
      return "v1," + Base64.getEncoder().encodeToString(mac.doFinal(body));
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }
}
