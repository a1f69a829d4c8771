package io.seqsync.projector.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seqsync.localstack.LocalPostgres;
import io.seqsync.store.Database;
import io.seqsync.store.StoredOffsets;
import java.nio.file.Path;
import java.util.Map;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The compare-and-set of projector offsets, on a real PostgreSQL. */
class ProjectionOffsetsTest {
  private static final String TOPIC = "seqsync.events";

  @TempDir static Path dir;
  private static LocalPostgres postgres;
  private static Database database;
  private static Jdbi jdbi;

  @BeforeAll
  static void start() {
    postgres = LocalPostgres.start(dir.resolve("postgres"), 0);
    database = Database.open(postgres.createDatabase("offsets"), postgres.user(), postgres.password(), 2);
    jdbi = database.jdbi();
  }

  @AfterAll
  static void stop() {
    database.close();
    postgres.close();
  }

  @Test
  void offsetsMoveOnlyFromWhereTheProjectorLeftThem() {
    assertThat(read()).isEmpty();

    advance(Map.of(), Map.of(0, 10L, 1, 7L));
    advance(Map.of(0, 10L), Map.of(0, 25L));
    assertThat(read()).isEqualTo(Map.of(0, 25L, 1, 7L));

    assertThatThrownBy(() -> advance(Map.of(0, 10L), Map.of(0, 40L)))
        .as("another instance moved partition 0 meanwhile").isInstanceOf(ProjectionOffsetConflict.class);
    assertThatThrownBy(() -> advance(Map.of(), Map.of(1, 9L)))
        .as("partition 1 was projected meanwhile").isInstanceOf(ProjectionOffsetConflict.class);
    assertThatThrownBy(() -> advance(Map.of(0, 25L), Map.of(0, 30L, 1, 9L)))
        .as("a conflict on one partition rolls back the whole batch").isInstanceOf(ProjectionOffsetConflict.class);
    assertThat(read()).isEqualTo(Map.of(0, 25L, 1, 7L));
    assertThat(read("other.topic")).isEmpty();
  }

  private void advance(Map<Integer, Long> from, Map<Integer, Long> to) {
    jdbi.useTransaction(handle -> ProjectionOffsets.advance(handle, TOPIC, from, to));
  }

  private Map<Integer, Long> read() {
    return read(TOPIC);
  }

  private Map<Integer, Long> read(String topic) {
    return jdbi.withHandle(handle -> StoredOffsets.read(handle, topic));
  }
}
