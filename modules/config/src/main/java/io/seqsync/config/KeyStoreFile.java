package io.seqsync.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;

/**
 * A key store file (a truststore of CAs, or a client's certificate and key): where it is, its password
 * and its type (PKCS12, JKS; Kafka also reads PEM). {@link #toString} leaves out the password. Immutable.
 */
public record KeyStoreFile(Path location, String password, String type) {

  void putInto(Map<String, String> settings, String prefix) {
    settings.put(prefix + "location", location.toString());
    if (!password.isEmpty()) {
      settings.put(prefix + "password", password);
    }
    settings.put(prefix + "type", type);
  }

  /** Sockets that trust the CAs in this store only (it is a truststore). */
  public SSLSocketFactory trustingSocketFactory() {
    try (InputStream in = Files.newInputStream(location)) {
      KeyStore store = KeyStore.getInstance(type);
      store.load(in, password.isEmpty() ? null : password.toCharArray());
      TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(store);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, trust.getTrustManagers(), null);
      return context.getSocketFactory();
    } catch (IOException | GeneralSecurityException e) {
      throw new ConfigException("cannot read the truststore " + location + ": " + e.getMessage());
    }
  }

  @Override
  public String toString() {
    return type + " " + location;
  }
}
