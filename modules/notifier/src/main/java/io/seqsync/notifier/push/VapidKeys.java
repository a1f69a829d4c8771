package io.seqsync.notifier.push;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;

/**
 * The application server's VAPID key pair (RFC 8292), a P-256 key kept as a JWK in a file (made
 * the first time, readable by its owner only): browsers subscribe with its public key, and every
 * Web Push request carries a JWT it signs (ES256) for the push service's origin. Instances that
 * share subscriptions must share the file. Thread-safe (immutable).
 */
public final class VapidKeys {
  private static final Duration TOKEN_LIFETIME = Duration.ofHours(12);

  private final ECKey key;
  private final String subject;

  private VapidKeys(ECKey key, String subject) {
    this.key = key;
    this.subject = subject;
  }

  /** The keys in {@code file}, made and written there when it does not exist. */
  public static VapidKeys loadOrCreate(Path file, String subject) {
    try {
      if (!Files.exists(file)) {
        ECKey generated = new ECKeyGenerator(Curve.P_256).generate();
        Files.createDirectories(file.toAbsolutePath().getParent());
        Path partial = file.resolveSibling(file.getFileName() + ".partial");
        Files.writeString(partial, generated.toJSONString(), StandardCharsets.UTF_8);
        try {
          Files.setPosixFilePermissions(partial, PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException ignored) {
          // not a POSIX file system
        }
        Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE);
      }
      return new VapidKeys(ECKey.parse(Files.readString(file, StandardCharsets.UTF_8)), subject);
    } catch (IOException e) {
      throw new UncheckedIOException("reading or writing the VAPID keys in " + file, e);
    } catch (ParseException | JOSEException e) {
      throw new IllegalStateException("the VAPID keys in " + file + " are not a P-256 JWK", e);
    }
  }

  /** The public key as browsers' {@code applicationServerKey} takes it: the uncompressed point, base64url. */
  public String publicKey() {
    try {
      return Base64.getUrlEncoder().withoutPadding().encodeToString(WebPushEncryption.uncompressed(key.toECPublicKey()));
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The {@code Authorization} header's value for a push to {@code endpoint}: {@code vapid t=<jwt>, k=<key>}. */
  public String authorization(URI endpoint, Instant now) {
    String audience = endpoint.getScheme() + "://" + endpoint.getRawAuthority();
    JWTClaimsSet claims = new JWTClaimsSet.Builder().audience(audience).subject(subject)
        .expirationTime(Date.from(now.plus(TOKEN_LIFETIME))).build();
    SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).type(JOSEObjectType.JWT).build(), claims);
    try {
      jwt.sign(new ECDSASigner(key));
    } catch (JOSEException e) {
      throw new IllegalStateException("signing the VAPID token failed", e);
    }
    return "vapid t=" + jwt.serialize() + ", k=" + publicKey();
  }
}
