package io.seqsync.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The object store's and the attachments' settings ({@code s3.*}, {@code attachments.*}). */
class AttachmentSettingsTest {
  @Test
  void unconfiguredIsTheEmbeddedServerWithItsOwnKeysAndPathStyle() {
    SeqsyncConfig config = ConfigLoader.of(Map.of());
    ObjectStoreSettings store = config.objectStore();
    assertThat(store.endpoint()).isEmpty();
    assertThat(store.accessKey()).isEqualTo(ObjectStoreSettings.EMBEDDED_ACCESS_KEY);
    assertThat(store.pathStyle()).isTrue();
    assertThat(store.urlTtl()).isEqualTo(Duration.ofMinutes(5));
    assertThat(config.sequencer().attachments())
        .isEqualTo(new AttachmentLimits(25 * 1024 * 1024, AttachmentLimits.DEFAULT_TYPES));
  }

  @Test
  void aConfiguredEndpointTakesItsOwnKeysAndNeverPrintsTheSecret() {
    SeqsyncConfig config = ConfigLoader.load(Map.of("SEQSYNC_S3_ENDPOINT", "https://minio.example:9000",
        "SEQSYNC_S3_ACCESS_KEY", "app", "SEQSYNC_S3_SECRET_KEY", "very-secret", "SEQSYNC_S3_PATH_STYLE", "true",
        "SEQSYNC_ATTACHMENTS_TYPES", " Image/PNG, application/pdf ", "SEQSYNC_ATTACHMENTS_URL_TTL", "30s"), Optional.empty());
    assertThat(config.objectStore().endpoint()).hasValue("https://minio.example:9000");
    assertThat(config.objectStore().toString()).doesNotContain("very-secret");
    assertThat(config.sequencer().attachments().types()).containsExactly("image/png", "application/pdf");
    assertThat(Endpoints.resolve(config, new Endpoints(null, null, null, null, null, "http://127.0.0.1:1")).objectStore())
        .hasValue("https://minio.example:9000");
  }

  @Test
  void scriptableTypesBadEndpointsAndTtlsAreRefused() {
    assertThatThrownBy(() -> new AttachmentLimits(10, List.of("image/svg+xml"))).isInstanceOf(ConfigException.class);
    assertThatThrownBy(() -> new AttachmentLimits(10, List.of("text/html"))).isInstanceOf(ConfigException.class);
    assertThatThrownBy(() -> new AttachmentLimits(0, List.of("image/png"))).isInstanceOf(ConfigException.class);
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("s3.endpoint", "minio:9000"))).isInstanceOf(ConfigException.class);
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("s3.bucket", "No_Such"))).isInstanceOf(ConfigException.class);
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("attachments.url-ttl", "8d"))).isInstanceOf(ConfigException.class);
  }
}
