package io.seqsync.app.tls;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A PostgreSQL server (zonky's binaries, as the embedded one: Debian's initdb refuses to run as
 * root) with {@code ssl=on} whose pg_hba accepts connections over TLS only ({@code hostssl}, with a
 * SCRAM password; anything else is rejected). The role is {@link #USER} with {@link #PASSWORD}.
 */
public final class TlsPostgres implements AutoCloseable {
  public static final String USER = "postgres";
  public static final String PASSWORD = "pg-secret";
  private static final String TLS_ONLY = """
      hostssl all all 127.0.0.1/32 %1$s
      hostssl all all ::1/128 %1$s
      host all all all reject
      """;

  private final EmbeddedPostgres postgres;

  private TlsPostgres(EmbeddedPostgres postgres) {
    this.postgres = postgres;
  }

  /** Starts it with its cluster in {@code dir}, its certificate from {@code certificates}. */
  public static TlsPostgres start(Path dir, TestCertificates certificates) {
    Path hba = dir.resolve("pg_hba.conf");
    try {
      Files.createDirectories(dir);
      // trust until the role has a password: zonky's readiness check signs in without one.
      Files.writeString(hba, TLS_ONLY.formatted("trust"));
      EmbeddedPostgres postgres = EmbeddedPostgres.builder()
          .setOverrideWorkingDirectory(dir.resolve("work").toFile())
          .setDataDirectory(dir.resolve("data"))
          .setPort(TlsKafka.freePort())
          .setServerConfig("ssl", "on")
          .setServerConfig("ssl_cert_file", certificates.serverCertPem().toString())
          .setServerConfig("ssl_key_file", certificates.serverKeyPem().toString())
          .setServerConfig("hba_file", hba.toString())
          // zonky's own readiness check connects too: over TLS, or pg_hba refuses it.
          .setConnectConfig("sslmode", "require")
          .start();
      try (Connection connection = postgres.getPostgresDatabase().getConnection();
          Statement statement = connection.createStatement()) {
        statement.execute("alter role " + USER + " password '" + PASSWORD + "'");
        Files.writeString(hba, TLS_ONLY.formatted("scram-sha-256"));
        statement.execute("select pg_reload_conf()");
      }
      return new TlsPostgres(postgres);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot set the role's password", e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start PostgreSQL with TLS in " + dir, e);
    }
  }

  /** The JDBC URL of database {@code postgres} at {@code host} with these pgjdbc parameters ({@code sslmode=...}). */
  public String jdbcUrl(String host, String parameters) {
    return "jdbc:postgresql://" + host + ":" + postgres.getPort() + "/postgres?" + parameters;
  }

  @Override
  public void close() {
    try {
      postgres.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
