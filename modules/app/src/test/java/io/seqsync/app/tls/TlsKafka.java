package io.seqsync.app.tls;

import io.seqsync.config.ConfigLoader;
import io.seqsync.config.KafkaConnection;
import io.seqsync.localstack.EmbeddedKafka;
import io.seqsync.localstack.KafkaNodeConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;

/**
 * A KRaft node in this JVM that speaks TLS only: clients connect to an SSL listener (no client
 * authentication), to an SSL listener that requires a client certificate (mutual TLS), or to a
 * SASL_SSL listener that signs users in with SCRAM-SHA-512; the controller
 * quorum and the broker's own connections use TLS too. {@link #USER} is created on the SASL_SSL
 * listener with {@link #PASSWORD}.
 */
public final class TlsKafka implements AutoCloseable {
  public static final String USER = "seqsync-app";
  public static final String PASSWORD = "kafka-secret";

  private final KafkaRaftServer server;
  private final String sslAddress;
  private final String saslAddress;
  private final String mutualAddress;

  private TlsKafka(KafkaRaftServer server, String sslAddress, String saslAddress, String mutualAddress) {
    this.server = server;
    this.sslAddress = sslAddress;
    this.saslAddress = saslAddress;
    this.mutualAddress = mutualAddress;
  }

  /** Starts the node with its log in {@code dir}, its certificate from {@code certificates}. */
  public static TlsKafka start(Path dir, TestCertificates certificates) {
    String ssl = "127.0.0.1:" + freePort();
    String sasl = "127.0.0.1:" + freePort();
    String mutual = "127.0.0.1:" + freePort();
    String controller = "127.0.0.1:" + freePort();
    Properties config = KafkaNodeConfig.combined(1, "1@" + controller, 1, dir.toAbsolutePath(), ssl, controller);
    config.putAll(Map.of(
        "listeners", "SSL://" + ssl + ",SASL_SSL://" + sasl + ",MUTUAL://" + mutual + ",CONTROLLER://" + controller,
        "advertised.listeners", "SSL://" + ssl + ",SASL_SSL://" + sasl + ",MUTUAL://" + mutual,
        "listener.security.protocol.map", "SSL:SSL,SASL_SSL:SASL_SSL,MUTUAL:SSL,CONTROLLER:SSL",
        "listener.name.mutual.ssl.client.auth", "required",
        "inter.broker.listener.name", "SSL",
        "sasl.enabled.mechanisms", "SCRAM-SHA-512",
        "listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config",
        "org.apache.kafka.common.security.scram.ScramLoginModule required;"));
    config.putAll(Map.of(
        "ssl.keystore.location", certificates.serverKeystore().toString(),
        "ssl.keystore.password", TestCertificates.PASSWORD,
        "ssl.keystore.type", "PKCS12",
        "ssl.truststore.location", certificates.truststore().toString(),
        "ssl.truststore.password", TestCertificates.PASSWORD,
        "ssl.truststore.type", "PKCS12"));
    EmbeddedKafka.format(config, Uuid.randomUuid().toString());
    KafkaRaftServer server = new KafkaRaftServer(new KafkaConfig(config), Time.SYSTEM);
    TlsKafka kafka = new TlsKafka(server, ssl, sasl, mutual);
    try {
      server.startup();
      kafka.addUser(certificates);
    } catch (RuntimeException e) {
      kafka.close();
      throw e;
    }
    return kafka;
  }

  // Over the SSL listener, which authenticates nobody; a broker without an authorizer lets anyone do this.
  private void addUser(TestCertificates certificates) {
    try (Admin admin = Admin.create(sslClient(certificates.truststore()).with(Map.of()))) {
      admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion(USER,
          new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), PASSWORD))).all().get();
    } catch (ExecutionException e) {
      throw new IllegalStateException("cannot create the SCRAM user", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The SSL listener's address. */
  public String sslAddress() {
    return sslAddress;
  }

  /** The SASL_SSL listener's address. */
  public String saslAddress() {
    return saslAddress;
  }

  /** A client of the SSL listener trusting {@code truststore}'s CAs, as configured with {@link #sslSettings}. */
  public KafkaConnection sslClient(Path truststore) {
    return KafkaConnection.configured(ConfigLoader.of(sslSettings(truststore)).kafka(), sslAddress);
  }

  /** seqsync's settings for the SSL listener, trusting {@code truststore}'s CAs. */
  public Map<String, String> sslSettings(Path truststore) {
    return Map.of("kafka.bootstrap-servers", sslAddress, "kafka.security-protocol", "SSL",
        "kafka.ssl-truststore-location", truststore.toString(), "kafka.ssl-truststore-password", TestCertificates.PASSWORD);
  }

  /** seqsync's settings for the listener that requires a client certificate, with {@code keystore}'s if given. */
  public Map<String, String> mutualSettings(Path truststore, Optional<Path> keystore) {
    Map<String, String> settings = new HashMap<>(sslSettings(truststore));
    settings.put("kafka.bootstrap-servers", mutualAddress);
    keystore.ifPresent(store -> {
      settings.put("kafka.ssl-keystore-location", store.toString());
      settings.put("kafka.ssl-keystore-password", TestCertificates.PASSWORD);
    });
    return settings;
  }

  /** seqsync's settings for the SASL_SSL listener as {@code user} with {@code password}, trusting {@code truststore}. */
  public Map<String, String> saslSettings(Path truststore, String user, String password) {
    return Map.of("kafka.bootstrap-servers", saslAddress, "kafka.security-protocol", "SASL_SSL",
        "kafka.ssl-truststore-location", truststore.toString(), "kafka.ssl-truststore-password", TestCertificates.PASSWORD,
        "kafka.sasl-mechanism", "SCRAM-SHA-512", "kafka.sasl-username", user, "kafka.sasl-password", password);
  }

  @Override
  public void close() {
    server.shutdown();
    server.awaitShutdown();
  }

  static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
