package io.seqsync.objects;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqsync.config.ObjectStoreSettings;
import io.seqsync.localstack.LocalS3;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Presigned URLs against a real S3 server: the embedded s3proxy, which checks every signature. */
class ObjectStoreTest {
  @TempDir
  static Path dir;
  private static LocalS3 server;
  private static ObjectStore store;
  private static ObjectStore shortLived;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeAll
  static void start() {
    server = LocalS3.start(dir, 0, ObjectStoreSettings.EMBEDDED_ACCESS_KEY, ObjectStoreSettings.EMBEDDED_SECRET_KEY);
    store = ObjectStore.connect(server.url(), settings(Duration.ofMinutes(5))).ensureBucket();
    shortLived = ObjectStore.connect(server.url(), settings(Duration.ofSeconds(1)));
  }

  @AfterAll
  static void stop() {
    store.close();
    shortLived.close();
    server.close();
  }

  private static ObjectStoreSettings settings(Duration ttl) {
    return new ObjectStoreSettings(Optional.empty(), "attachments-test", "us-east-1",
        ObjectStoreSettings.EMBEDDED_ACCESS_KEY, ObjectStoreSettings.EMBEDDED_SECRET_KEY, true, 0, ttl);
  }

  @Test
  void anUploadThroughItsUrlIsDownloadedThroughAnother() throws Exception {
    byte[] bytes = "hello, attachment".getBytes(StandardCharsets.UTF_8);
    ObjectStore.PresignedUrl upload = store.uploadUrl("u/1/round-trip", "text/plain", bytes.length);
    assertThat(put(upload.url(), "text/plain", bytes).statusCode()).isEqualTo(200);
    assertThat(store.size("u/1/round-trip")).isEqualTo(bytes.length);

    HttpResponse<byte[]> download = get(store.downloadUrl("u/1/round-trip", "text/plain", "notes ü.txt", false).url());
    assertThat(download.statusCode()).isEqualTo(200);
    assertThat(download.body()).isEqualTo(bytes);
    assertThat(download.headers().firstValue("Content-Disposition")).hasValueSatisfying(
        value -> assertThat(value).contains("attachment").contains("notes%20%C3%BC.txt"));
  }

  @Test
  void anUploadOfAnotherSizeOrTypeThanSignedIsRefused() throws Exception {
    ObjectStore.PresignedUrl upload = store.uploadUrl("u/1/signed", "image/png", 4);
    assertThat(put(upload.url(), "image/png", new byte[5]).statusCode()).isEqualTo(403);
    assertThat(put(upload.url(), "text/html", new byte[4]).statusCode()).isEqualTo(403);
    assertThat(store.size("u/1/signed")).isEqualTo(-1);
  }

  @Test
  void anExpiredUrlIsRefused() throws Exception {
    byte[] bytes = {1, 2, 3};
    put(store.uploadUrl("u/1/expiring", "application/zip", 3).url(), "application/zip", bytes);
    String url = shortLived.downloadUrl("u/1/expiring", "application/zip", "a.zip", false).url();
    assertThat(get(url).statusCode()).isEqualTo(200);
    Thread.sleep(2_100);
    assertThat(get(url).statusCode()).isEqualTo(403);
  }

  @Test
  void aUrlWithAnAlteredKeyIsRefused() throws Exception {
    put(store.uploadUrl("u/1/mine", "text/plain", 1).url(), "text/plain", new byte[] {'x'});
    String url = store.downloadUrl("u/1/mine", "text/plain", "mine.txt", true).url();
    assertThat(get(url.replace("u/1/mine", "u/1/other")).statusCode()).isEqualTo(403);
  }

  private HttpResponse<byte[]> put(String url, String type, byte[] body) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", type)
        .PUT(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  private HttpResponse<byte[]> get(String url) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(url)).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
  }
}
