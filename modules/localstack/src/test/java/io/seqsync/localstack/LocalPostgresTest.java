package io.seqsync.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalPostgresTest {

  @Test
  void rowsSurviveARestart(@TempDir Path dir) throws SQLException {
    try (LocalPostgres postgres = LocalPostgres.start(dir, 0);
        Connection connection = connect(postgres);
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE greeting (id int PRIMARY KEY, text text NOT NULL)");
      statement.execute("INSERT INTO greeting VALUES (1, 'hello')");
    }

    try (LocalPostgres postgres = LocalPostgres.start(dir, 0);
        Connection connection = connect(postgres);
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SELECT text FROM greeting WHERE id = 1")) {
      assertThat(rows.next()).isTrue();
      assertThat(rows.getString(1)).isEqualTo("hello");
    }
  }

  @Test
  void commitsWaitForTheWalWhoseNewSegmentsAreNotZeroFilled(@TempDir Path dir) throws SQLException {
    try (LocalPostgres postgres = LocalPostgres.start(dir, 0);
        Connection connection = connect(postgres)) {
      assertThat(setting(connection, "synchronous_commit")).isEqualTo("on");
      assertThat(setting(connection, "wal_init_zero")).isEqualTo("off");
    }
  }

  private static String setting(Connection connection, String name) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SELECT current_setting('" + name + "')")) {
      rows.next();
      return rows.getString(1);
    }
  }

  private static Connection connect(LocalPostgres postgres) throws SQLException {
    return DriverManager.getConnection(postgres.jdbcUrl(), postgres.user(), postgres.password());
  }
}
