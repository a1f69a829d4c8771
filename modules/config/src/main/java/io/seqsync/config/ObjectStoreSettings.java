package io.seqsync.config;

import java.net.URI;
import java.time.Duration;
import java.util.Optional;

/**
 * Where attachments' bytes live: an S3-compatible object store. {@code endpoint} empty means an
 * embedded S3 server (s3proxy) under {@code dataDir/s3} on {@code embeddedPort} (0: any free port),
 * in a build that has the embedded servers; a production build without an endpoint has no
 * attachments (their routes answer 503). {@code pathStyle}: bucket in the path, not the host name
 * (MinIO, R2, s3proxy). {@code urlTtl}: how long a presigned upload or download URL works.
 * Immutable; {@link #toString} leaves the secret out.
 */
public record ObjectStoreSettings(Optional<String> endpoint, String bucket, String region, String accessKey,
    String secretKey, boolean pathStyle, int embeddedPort, Duration urlTtl) {
  /** The embedded server's credentials: it listens on 127.0.0.1 only. */
  public static final String EMBEDDED_ACCESS_KEY = "seqsync";
  public static final String EMBEDDED_SECRET_KEY = "seqsync-embedded-s3-secret";

  public ObjectStoreSettings {
    endpoint.ifPresent(address -> {
      URI uri = URI.create(address);
      if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
        throw new ConfigException("s3.endpoint must be an http(s) URL: " + address);
      }
    });
    if (!bucket.matches("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]")) {
      throw new ConfigException("s3.bucket must be a valid bucket name (3-63 of a-z, 0-9, '.', '-'): " + bucket);
    }
    if (region.isBlank()) {
      throw new ConfigException("s3.region must not be blank");
    }
    if (embeddedPort < 0 || embeddedPort > 65_535) {
      throw new ConfigException("s3.embedded-port must be 0..65535");
    }
    // SigV4 presigned URLs live at most 7 days.
    if (urlTtl.toMillis() < 1000 || urlTtl.compareTo(Duration.ofDays(7)) > 0) {
      throw new ConfigException("attachments.url-ttl must be 1s..7d");
    }
  }

  @Override
  public String toString() {
    return "ObjectStoreSettings[endpoint=" + endpoint + ", bucket=" + bucket + ", region=" + region + ", pathStyle="
        + pathStyle + ", urlTtl=" + urlTtl + "]";
  }
}
