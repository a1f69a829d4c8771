package io.seqsync.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Where the servers are: the configured ones, else the embedded ones; and a build without embedded
 * servers (this module's tests have no localstack on their class path, as a production build).
 */
class ServersTest {
  private static final Endpoints EMBEDDED = new Endpoints("127.0.0.1:9092", "jdbc:postgresql://127.0.0.1:15432/postgres",
      "postgres", "", "redis://127.0.0.1:16379", null);

  @Test
  void eachConfiguredServerIsUsedAndEachOtherIsTheEmbeddedOne() {
    SeqsyncConfig config = ConfigLoader.of(Map.of("postgres.jdbc-url", "jdbc:postgresql://db:5432/seqsync",
        "postgres.user", "seqsync", "postgres.password", "secret"));

    assertThat(Endpoints.unconfigured(config)).containsExactlyInAnyOrder(Endpoints.Server.KAFKA, Endpoints.Server.REDIS);
    assertThat(Endpoints.resolve(config, EMBEDDED)).isEqualTo(new Endpoints("127.0.0.1:9092",
        "jdbc:postgresql://db:5432/seqsync", "seqsync", "secret", "redis://127.0.0.1:16379", null));
  }

  @Test
  void nothingConfiguredIsAllEmbedded() {
    SeqsyncConfig config = ConfigLoader.of(Map.of());

    assertThat(Endpoints.unconfigured(config)).containsExactlyInAnyOrder(Endpoints.Server.values());
    assertThat(Endpoints.resolve(config, EMBEDDED)).isEqualTo(EMBEDDED);
  }

  @Test
  void everythingConfiguredStartsNothing() {
    SeqsyncConfig config = ConfigLoader.of(Map.of("kafka.bootstrap-servers", "kafka:9092",
        "postgres.jdbc-url", "jdbc:postgresql://db:5432/seqsync", "redis.uri", "redis://cache:6379"));

    try (Servers servers = Servers.start(config)) {
      assertThat(servers.endpoints()).isEqualTo(new Endpoints("kafka:9092", "jdbc:postgresql://db:5432/seqsync",
          "postgres", "", "redis://cache:6379", null));
    }
  }

  @Test
  void aBuildWithoutEmbeddedServersRefusesAServerNotConfigured() {
    SeqsyncConfig config = ConfigLoader.of(Map.of("kafka.bootstrap-servers", "kafka:9092",
        "postgres.jdbc-url", "jdbc:postgresql://db:5432/seqsync"));

    assertThatThrownBy(() -> Servers.start(config)).isInstanceOf(ConfigException.class)
        .hasMessageContaining("[REDIS]").hasMessageContaining("no embedded servers");
  }
}
