package io.seqsync.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class MigrationsTest {
  @RegisterExtension
  static final TestDatabases databases = new TestDatabases("migrations");

  @Test
  void everyVersionIsAppliedOnceInOrderAndAgainNothing() {
    Database database = databases.database();
    Migrations.apply(database.jdbi());

    List<Integer> versions = database.jdbi().withHandle(handle -> handle
        .createQuery("select version from schema_migrations order by applied_at, version").mapTo(Integer.class).list());
    assertThat(versions).containsExactly(1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14);
  }

  @Test
  void analyzeKeepsStatisticsOnlyForTheColumnsQueriesSelectBy() {
    // attstattarget: 0 collects none; -1 (null from PostgreSQL 17 on) the default target.
    Map<String, Integer> targets = databases.database().jdbi().withHandle(handle -> handle
        .createQuery("select attname, coalesce(attstattarget::int, -1) as target from pg_attribute"
            + " where attrelid = 'messages'::regclass and attnum > 0 and not attisdropped")
        .map((row, context) -> Map.entry(row.getString("attname"), row.getInt("target")))
        .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)));

    assertThat(targets).containsOnly(
        Map.entry("conv_id", -1), Map.entry("seq", -1), Map.entry("create_time", -1),
        Map.entry("msg_id", 0), Map.entry("sender_id", 0), Map.entry("sender_device", 0),
        Map.entry("client_msg_id", 0), Map.entry("type", 0), Map.entry("content", 0), Map.entry("recalled", 0),
        Map.entry("attachment", 0),
        Map.entry("edited_at", 0), Map.entry("reply_to", 0), Map.entry("mentions", 0), Map.entry("reactions", 0));
  }
}
