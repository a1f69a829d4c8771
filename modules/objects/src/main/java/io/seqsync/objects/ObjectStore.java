package io.seqsync.objects;

import io.seqsync.config.ObjectStoreSettings;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
import software.amazon.awssdk.services.s3.presigner.model.PresignedGetObjectRequest;
import software.amazon.awssdk.services.s3.presigner.model.PresignedPutObjectRequest;

/**
 * One bucket of an S3-compatible object store, where attachments' bytes go: clients upload and
 * download them themselves through presigned URLs (SigV4, valid for {@code urlTtl}), so the bytes
 * never pass through the app or Kafka. Thread-safe (the SDK's client and presigner are).
 */
public final class ObjectStore implements AutoCloseable {
  private final S3Client client;
  private final S3Presigner presigner;
  private final String bucket;
  private final Duration urlTtl;

  private ObjectStore(S3Client client, S3Presigner presigner, String bucket, Duration urlTtl) {
    this.client = client;
    this.presigner = presigner;
    this.bucket = bucket;
    this.urlTtl = urlTtl;
  }

  /** The store at {@code endpoint} (the configured one or the embedded server's) with {@code settings}' bucket and keys. */
  public static ObjectStore connect(String endpoint, ObjectStoreSettings settings) {
    // Without keys configured: the SDK's default chain (environment, profile, instance role).
    AwsCredentialsProvider credentials = settings.accessKey().isEmpty() ? DefaultCredentialsProvider.builder().build()
        : StaticCredentialsProvider.create(AwsBasicCredentials.create(settings.accessKey(), settings.secretKey()));
    URI uri = URI.create(endpoint);
    Region region = Region.of(settings.region());
    S3Configuration s3 = S3Configuration.builder().pathStyleAccessEnabled(settings.pathStyle())
        .chunkedEncodingEnabled(false).build();
    S3Client client = S3Client.builder().endpointOverride(uri).region(region).credentialsProvider(credentials)
        .serviceConfiguration(s3).httpClientBuilder(UrlConnectionHttpClient.builder()).build();
    S3Presigner presigner = S3Presigner.builder().endpointOverride(uri).region(region).credentialsProvider(credentials)
        .serviceConfiguration(s3).build();
    return new ObjectStore(client, presigner, settings.bucket(), settings.urlTtl());
  }

  /** Creates the bucket unless it exists (an embedded server's first start; a configured one is usually made by its operator). */
  public ObjectStore ensureBucket() {
    try {
      client.headBucket(request -> request.bucket(bucket));
    } catch (NoSuchBucketException missing) {
      client.createBucket(request -> request.bucket(bucket));
    } catch (S3Exception e) {
      if (e.statusCode() != 404) {
        throw e;
      }
      client.createBucket(request -> request.bucket(bucket));
    }
    return this;
  }

  /**
   * A URL that lets its holder PUT exactly {@code size} bytes of {@code contentType} at {@code key}
   * until it expires: both headers are signed, so another size or type is refused by the store.
   */
  public PresignedUrl uploadUrl(String key, String contentType, long size) {
    PresignedPutObjectRequest put = presigner.presignPutObject(presign -> presign.signatureDuration(urlTtl)
        .putObjectRequest(object -> object.bucket(bucket).key(key).contentType(contentType).contentLength(size)));
    return new PresignedUrl(put.url().toString(), put.expiration());
  }

  /**
   * A URL that lets its holder GET the object at {@code key} until it expires, served as
   * {@code contentType} and as a download named {@code fileName} unless {@code inline}.
   */
  public PresignedUrl downloadUrl(String key, String contentType, String fileName, boolean inline) {
    String disposition = (inline ? "inline" : "attachment") + "; filename*=UTF-8''" + ContentDisposition.encode(fileName);
    PresignedGetObjectRequest get = presigner.presignGetObject(presign -> presign.signatureDuration(urlTtl)
        .getObjectRequest(object -> object.bucket(bucket).key(key).responseContentType(contentType)
            .responseContentDisposition(disposition)));
    return new PresignedUrl(get.url().toString(), get.expiration());
  }

  /** Removes the object at {@code key}; a missing one is not an error (S3's DELETE is idempotent). */
  public void delete(String key) {
    client.deleteObject(request -> request.bucket(bucket).key(key));
  }

  /** Removes every object whose key starts with {@code prefix} (a user's upload namespace); returns how many. */
  public long deleteUnder(String prefix) {
    long deleted = 0;
    for (S3Object object : client.listObjectsV2Paginator(request -> request.bucket(bucket).prefix(prefix)).contents()) {
      delete(object.key());
      deleted++;
    }
    return deleted;
  }

  /** The object's size in bytes, or -1 when there is none at {@code key}. */
  public long size(String key) {
    try {
      return client.headObject(request -> request.bucket(bucket).key(key)).contentLength();
    } catch (S3Exception e) {
      if (e.statusCode() == 404) {
        return -1;
      }
      throw e;
    }
  }

  /**
   * Where presigned URLs point, {@code scheme://host[:port]}: the origin a web page must be allowed
   * to reach (path-style: the endpoint's; virtual-hosted: the bucket's host name).
   */
  public String origin() {
    URI url = URI.create(downloadUrl("origin", "application/octet-stream", "origin", false).url());
    return url.getScheme() + "://" + url.getHost() + (url.getPort() == -1 ? "" : ":" + url.getPort());
  }

  public Duration urlTtl() {
    return urlTtl;
  }

  @Override
  public void close() {
    presigner.close();
    client.close();
  }

  /** A presigned URL and when it stops working. */
  public record PresignedUrl(String url, Instant expiresAt) {}
}
