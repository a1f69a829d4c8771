package io.seqsync.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** postgres.shards: absent, parsed (a URL's own commas kept), the home shard, and what is refused. */
class PostgresShardsSettingsTest {
  private static final String H1 = "jdbc:postgresql://h1:5432/db";
  private static final String H2 = "jdbc:postgresql://h2a:5432,h2b:5432/db?targetServerType=primary";

  @Test
  void absentIsOneDatabaseForEveryPartition() {
    PostgresSettings postgres = ConfigLoader.of(Map.of("postgres.jdbc-url", H1)).postgres();
    assertThat(postgres.shards().configured()).isFalse();
    assertThat(postgres.shards().urlOfPartition(3, H1)).containsExactly(H1, H1, H1);
  }

  @Test
  void rangesMapPartitionsAndTheFirstIsHome() {
    PostgresSettings postgres = ConfigLoader.of(Map.of("kafka.partitions", "6",
        "postgres.shards", "4-5=" + H2 + ", 0-3=" + H1)).postgres();
    assertThat(postgres.shards().ranges()).containsExactly(new PostgresShards.Range(0, 3, H1),
        new PostgresShards.Range(4, 5, H2));
    assertThat(postgres.jdbcUrl()).contains(H1);
    assertThat(postgres.shards().urlOfPartition(6, "unused")).isEqualTo(List.of(H1, H1, H1, H1, H2, H2));
    assertThat(ConfigLoader.of(Map.of("kafka.partitions", "2", "postgres.shards", "0=" + H1 + ",1=" + H2))
        .postgres().shards().urlOfPartition(2, "unused")).containsExactly(H1, H2);
  }

  @Test
  void aShardNamesItsReplicasAfterItsPrimary() {
    String r1 = "jdbc:postgresql://h1r:5432/db";
    String r2 = "jdbc:postgresql://h2r1:5432,h2r2:5432/db";
    PostgresSettings postgres = ConfigLoader.of(Map.of("kafka.partitions", "6",
        "postgres.shards", "0-2=" + H1 + "|" + r1 + ",3=" + H2 + " | " + r2 + ",4-5=" + H2 + "|" + r2)).postgres();
    assertThat(postgres.shards().ranges()).containsExactly(new PostgresShards.Range(0, 2, H1, List.of(r1)),
        new PostgresShards.Range(3, 3, H2, List.of(r2)), new PostgresShards.Range(4, 5, H2, List.of(r2)));
    assertThat(postgres.jdbcUrl()).contains(H1);
    assertThat(postgres.shards().urlOfPartition(6, "unused")).isEqualTo(List.of(H1, H1, H1, H2, H2, H2));
    assertThat(postgres.replicasOf(H2)).containsExactly(r2);
    assertThat(postgres.hasReplicas()).isTrue();
    PostgresSettings without = ConfigLoader.of(Map.of("kafka.partitions", "2", "postgres.shards", "0=" + H1 + ",1=" + H2))
        .postgres();
    assertThat(without.replicasOf(H1)).isEmpty();
    assertThat(without.hasReplicas()).isFalse();
  }

  @Test
  void badReplicasAreRefused() {
    String r1 = "jdbc:postgresql://h1r:5432/db";
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("kafka.partitions", "2", "postgres.shards", "0-1=" + H1 + "|")))
        .hasMessageContaining("has an empty URL");
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("kafka.partitions", "2", "postgres.shards", "0-1=" + H1 + "||" + r1)))
        .hasMessageContaining("has an empty URL");
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("kafka.partitions", "2", "postgres.shards", "0-1=" + H1 + "|h1r/db")))
        .hasMessageContaining("h1r/db is not a PostgreSQL JDBC URL");
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("kafka.partitions", "2", "postgres.shards", "0-1=" + H1 + "|" + H1)))
        .hasMessageContaining("must be distinct and other than it");
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("kafka.partitions", "2", "postgres.shards", "0-1=" + H1 + "|" + r1 + "|" + r1)))
        .hasMessageContaining("must be distinct and other than it");
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("kafka.partitions", "2", "postgres.shards",
        "0=" + H1 + "|" + r1 + ",1=" + H1))).hasMessageContaining("name different replicas");
  }

  @Test
  void gapsOverlapsWrongCountsAndOtherUrlsAreRefused() {
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("kafka.partitions", "6", "postgres.shards", "0-2=" + H1 + ",4-5=" + H2)))
        .hasMessageContaining("expected a range from 3");
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("kafka.partitions", "6", "postgres.shards", "0-3=" + H1 + ",3-5=" + H2)))
        .hasMessageContaining("expected a range from 4");
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("kafka.partitions", "8", "postgres.shards", "0-3=" + H1 + ",4-5=" + H2)))
        .hasMessageContaining("the events topic has 8");
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("kafka.partitions", "6", "postgres.shards", "0-5=mysql://h1/db")))
        .hasMessageContaining("not a PostgreSQL JDBC URL");
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("kafka.partitions", "6", "postgres.shards", H1)))
        .hasMessageContaining("postgres.shards must be first-last=jdbcUrl");
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("kafka.partitions", "6", "postgres.jdbc-url", H2,
        "postgres.shards", "0-5=" + H1))).hasMessageContaining("postgres.jdbc-url must be absent or be the shard of partition 0");
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("kafka.partitions", "6", "postgres.replica-jdbc-urls", "jdbc:postgresql://r1:5432/db",
        "postgres.shards", "0-5=" + H1))).hasMessageContaining("not with postgres.shards");
  }
}
