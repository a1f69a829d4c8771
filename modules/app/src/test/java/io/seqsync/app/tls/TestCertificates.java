package io.seqsync.app.tls;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * A test CA and a certificate it signed for {@code localhost} and {@code 127.0.0.1}, made with the
 * JDK's keytool in {@code dir}: as PKCS12 stores for Java (Kafka's broker, the app's truststores) and
 * as PEM files for OpenSSL's servers (Redis, PostgreSQL). A second, unrelated CA stands for a server
 * the app must not trust. Every store's password is {@link #PASSWORD}.
 */
public record TestCertificates(Path dir) {
  public static final String PASSWORD = "changeit";

  /** Makes the CAs, the server's key and certificate, in {@code dir}. */
  public static TestCertificates create(Path dir) {
    TestCertificates files = new TestCertificates(dir);
    files.keytool("-genkeypair", "-alias", "ca", "-dname", "CN=seqsync test CA", "-ext", "bc:c", "-keyalg", "EC",
        "-validity", "2", "-keystore", "ca.p12");
    files.keytool("-exportcert", "-alias", "ca", "-rfc", "-file", "ca.pem", "-keystore", "ca.p12");
    files.keytool("-importcert", "-noprompt", "-alias", "ca", "-file", "ca.pem", "-keystore", "truststore.p12");
    files.keytool("-genkeypair", "-alias", "other", "-dname", "CN=another CA", "-ext", "bc:c", "-keyalg", "EC",
        "-validity", "2", "-keystore", "other.p12");
    files.keytool("-exportcert", "-alias", "other", "-rfc", "-file", "other.pem", "-keystore", "other.p12");
    files.keytool("-importcert", "-noprompt", "-alias", "other", "-file", "other.pem", "-keystore", "other-truststore.p12");
    files.keytool("-genkeypair", "-alias", "server", "-dname", "CN=localhost", "-keyalg", "EC", "-keystore", "server.p12");
    files.keytool("-certreq", "-alias", "server", "-file", "server.csr", "-keystore", "server.p12");
    files.keytool("-gencert", "-alias", "ca", "-infile", "server.csr", "-outfile", "server.pem", "-rfc", "-validity", "2",
        "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-keystore", "ca.p12");
    files.keytool("-importcert", "-noprompt", "-alias", "ca", "-file", "ca.pem", "-keystore", "server.p12");
    files.keytool("-importcert", "-alias", "server", "-file", "server.pem", "-keystore", "server.p12");
    files.writeServerKeyPem();
    return files;
  }

  /** The PKCS12 store of the CA's certificate: what the app's clients trust. */
  public Path truststore() {
    return dir.resolve("truststore.p12");
  }

  /** A PKCS12 truststore of a CA that signed nothing here. */
  public Path otherTruststore() {
    return dir.resolve("other-truststore.p12");
  }

  /** The CA's certificate, PEM (pgjdbc's {@code sslrootcert}, redis-server's {@code tls-ca-cert-file}). */
  public Path caPem() {
    return dir.resolve("ca.pem");
  }

  /** The other CA's certificate, PEM. */
  public Path otherCaPem() {
    return dir.resolve("other.pem");
  }

  /** The server's key and certificate, PKCS12 (a Kafka broker's keystore). */
  public Path serverKeystore() {
    return dir.resolve("server.p12");
  }

  public Path serverCertPem() {
    return dir.resolve("server.pem");
  }

  /** The server's private key, PKCS#8 PEM, readable by its owner only (PostgreSQL requires it). */
  public Path serverKeyPem() {
    return dir.resolve("server-key.pem");
  }

  private void writeServerKeyPem() {
    try (InputStream in = Files.newInputStream(serverKeystore())) {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(in, PASSWORD.toCharArray());
      byte[] key = store.getKey("server", PASSWORD.toCharArray()).getEncoded();
      String pem = "-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
          .encodeToString(key) + "\n-----END PRIVATE KEY-----\n";
      Files.writeString(serverKeyPem(), pem);
      Files.setPosixFilePermissions(serverKeyPem(), PosixFilePermissions.fromString("rw-------"));
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalStateException("cannot write the server's key as PEM", e);
    }
  }

  private void keytool(String... args) {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
    command.addAll(List.of(args));
    command.addAll(List.of("-storetype", "PKCS12", "-storepass", PASSWORD));
    try {
      Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (process.waitFor() != 0) {
        throw new IllegalStateException("keytool " + String.join(" ", args) + " failed: " + output);
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot run keytool", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
