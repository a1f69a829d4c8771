package io.seqsync.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** postgres.replica-jdbc-urls: none by default, a comma-separated list taken, anything but JDBC URLs refused. */
class ReplicaSettingsTest {
  @Test
  void noReplicasByDefault() {
    assertThat(ConfigLoader.of(Map.of()).postgres().replicaJdbcUrls()).isEmpty();
    assertThat(ConfigLoader.of(Map.of("postgres.replica-jdbc-urls", "")).postgres().replicaJdbcUrls()).isEmpty();
  }

  @Test
  void aCommaSeparatedListIsTaken() {
    assertThat(ConfigLoader.of(Map.of("postgres.replica-jdbc-urls",
            "jdbc:postgresql://r1:5432/seqsync, jdbc:postgresql://r2:5432/seqsync?sslmode=require,"))
        .postgres().replicaJdbcUrls())
        .containsExactly("jdbc:postgresql://r1:5432/seqsync", "jdbc:postgresql://r2:5432/seqsync?sslmode=require");
  }

  @Test
  void anythingButAPostgresJdbcUrlIsRefused() {
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("postgres.replica-jdbc-urls", "r1:5432")))
        .hasMessageContaining("postgres.replica-jdbc-urls");
  }
}
