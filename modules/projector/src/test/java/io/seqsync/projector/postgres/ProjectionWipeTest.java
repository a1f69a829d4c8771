package io.seqsync.projector.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqsync.store.TestDatabases;
import java.util.List;
import java.util.stream.Stream;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ProjectionWipeTest {
  @RegisterExtension
  static final TestDatabases databases = new TestDatabases("wipe");

  @Test
  void theListNamesEveryTableTheMigrationsCreateButTheirOwn() {
    List<String> created = databases.database().jdbi().withHandle(handle -> handle.createQuery(
            "select table_name from information_schema.tables where table_schema = current_schema()"
                + " and table_type = 'BASE TABLE' and table_name <> 'schema_migrations'")
        .mapTo(String.class).list());
    assertThat(Stream.concat(ProjectionWipe.TABLES.stream(), ProjectionWipe.KEPT.stream()).toList())
        .containsExactlyInAnyOrderElementsOf(created);
  }

  @Test
  void emptiesSeqsyncsTablesAndLeavesTheMigrationsAndOtherTablesAlone() {
    Jdbi jdbi = databases.database().jdbi();
    jdbi.useHandle(handle -> {
      handle.execute("insert into conversations (conv_id, kind, latest_seq) values ('d:1:2', 'direct', 1)");
      handle.execute("insert into messages (conv_id, seq, msg_id, sender_id, sender_device, client_msg_id, type,"
          + " content, create_time) values ('d:1:2', 1, 10, 1, 'phone', 'c1', 'text', 'x', 1000)");
      handle.execute("insert into projector_offsets (topic, partition, next_offset) values ('seqsync.events', 0, 2)");
      handle.execute("insert into revocations (user_id, device_id, revoked_before) values (1, 'phone', 1000)");
      handle.execute("create table someone_elses (id int)");
      handle.execute("insert into someone_elses values (1)");
    });

    ProjectionWipe.run(jdbi);

    for (String table : ProjectionWipe.TABLES) {
      long rows = jdbi.withHandle(handle -> handle.createQuery("select count(*) from " + table).mapTo(Long.class).one());
      assertThat(rows).as(table).isZero();
    }
    long others = jdbi.withHandle(handle -> handle.createQuery("select count(*) from someone_elses").mapTo(Long.class).one());
    long migrations = jdbi.withHandle(handle ->
        handle.createQuery("select count(*) from schema_migrations").mapTo(Long.class).one());
    long revocations = jdbi.withHandle(handle ->
        handle.createQuery("select count(*) from revocations").mapTo(Long.class).one());
    assertThat(others).isEqualTo(1);
    assertThat(revocations).as("sign-outs are no projection: a replay keeps them").isEqualTo(1);
    assertThat(migrations).isEqualTo(13);
  }
}
