package io.seqsync.app.tls;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A PostgreSQL server (zonky's binaries, as the embedded one) with {@code ssl=on} whose pg_hba
 * accepts connections over TLS only ({@code hostssl}; anything else is rejected).
 */
public final class TlsPostgres implements AutoCloseable {
  private final EmbeddedPostgres postgres;

  private TlsPostgres(EmbeddedPostgres postgres) {
    this.postgres = postgres;
  }

  /** Starts it with its cluster in {@code dir}, its certificate from {@code certificates}. */
  public static TlsPostgres start(Path dir, TestCertificates certificates) {
    Path hba = dir.resolve("pg_hba.conf");
    try {
      Files.createDirectories(dir);
      Files.writeString(hba, """
          hostssl all all 127.0.0.1/32 trust
          hostssl all all ::1/128 trust
          host all all all reject
          """);
      return new TlsPostgres(EmbeddedPostgres.builder()
          .setOverrideWorkingDirectory(dir.resolve("work").toFile())
          .setDataDirectory(dir.resolve("data"))
          .setPort(TlsKafka.freePort())
          .setServerConfig("ssl", "on")
          .setServerConfig("ssl_cert_file", certificates.serverCertPem().toString())
          .setServerConfig("ssl_key_file", certificates.serverKeyPem().toString())
          .setServerConfig("hba_file", hba.toString())
          // zonky's own readiness check connects too: over TLS, or pg_hba refuses it.
          .setConnectConfig("sslmode", "require")
          .start());
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
