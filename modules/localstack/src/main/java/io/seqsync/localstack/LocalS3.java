package io.seqsync.localstack;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.CrossOriginResourceSharing;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStoreContext;

/**
 * A real S3 API server in this JVM: s3proxy over jclouds' filesystem blob store, its buckets
 * directories under {@code dir}, so attachments survive a restart as the other servers' data does.
 * It checks AWS signatures (v2 and v4) against one access key, so presigned URLs are verified
 * (and expire) as on any S3; any origin may call it (CORS), since the web client uploads and
 * downloads straight from the browser. s3proxy's Jetty 11 is shaded inside its jar and does not
 * meet the app's Jetty 12.
 */
public final class LocalS3 implements AutoCloseable {
  private static final String HOST = "127.0.0.1";

  private final S3Proxy proxy;
  private final BlobStoreContext context;

  private LocalS3(S3Proxy proxy, BlobStoreContext context) {
    this.proxy = proxy;
    this.context = context;
  }

  /** Starts it on {@code port} (0: any free port) and returns once it serves requests. */
  public static LocalS3 start(Path dir, int port, String accessKey, String secretKey) {
    BlobStoreContext context = null;
    try {
      Files.createDirectories(dir);
      Properties properties = new Properties();
      properties.setProperty("jclouds.filesystem.basedir", dir.toString());
      context = ContextBuilder.newBuilder("filesystem").overrides(properties).buildView(BlobStoreContext.class);
      S3Proxy proxy = S3Proxy.builder()
          .blobStore(context.getBlobStore())
          .endpoint(URI.create("http://" + HOST + ":" + port))
          .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, accessKey, secretKey)
          .corsRules(new CrossOriginResourceSharing(List.of("*"), List.of("GET", "PUT", "HEAD"), List.of("*"),
              List.of("ETag"), "false"))
          .build();
      proxy.start();
      while (!"STARTED".equals(proxy.getState())) {
        Thread.sleep(10);
      }
      return new LocalS3(proxy, context);
    } catch (Exception e) {
      if (context != null) {
        context.close();
      }
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      throw new IllegalStateException("the embedded S3 server did not start under " + dir, e);
    }
  }

  /** The endpoint URL (path-style: the bucket is the first path segment). */
  public String url() {
    return url(proxy.getPort());
  }

  /** The endpoint URL of a server on {@code port}. */
  static String url(int port) {
    return "http://" + HOST + ":" + port;
  }

  @Override
  public void close() {
    try {
      proxy.stop();
    } catch (Exception e) {
      throw new IllegalStateException("the embedded S3 server did not stop", e);
    } finally {
      context.close();
    }
  }
}
