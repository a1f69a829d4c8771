package io.seqsync.config;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * How seqsync's Kafka clients reach the brokers: {@code protocol} is Kafka's {@code security.protocol}
 * (PLAINTEXT, SSL, SASL_SSL, SASL_PLAINTEXT); {@code truststore} the CAs trusted when the JVM's own do not
 * sign the brokers' certificates; {@code keystore} the client's certificate for mutual TLS; {@code sasl}
 * the mechanism (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512) with a user and password. {@link #clientSettings}
 * gives them as Kafka client properties, the same for every producer, consumer, admin and Streams client.
 * {@link #toString} leaves out the passwords. Immutable.
 */
public record KafkaSecurity(String protocol, Optional<KeyStoreFile> truststore, Optional<KeyStoreFile> keystore,
    Optional<Sasl> sasl) {
  private static final Set<String> PROTOCOLS = Set.of("PLAINTEXT", "SSL", "SASL_SSL", "SASL_PLAINTEXT");
  private static final Map<String, String> LOGIN_MODULES = Map.of(
      "PLAIN", "org.apache.kafka.common.security.plain.PlainLoginModule",
      "SCRAM-SHA-256", "org.apache.kafka.common.security.scram.ScramLoginModule",
      "SCRAM-SHA-512", "org.apache.kafka.common.security.scram.ScramLoginModule");

  /** No TLS, no authentication: Kafka's default. */
  public static final KafkaSecurity PLAINTEXT = new KafkaSecurity("PLAINTEXT", Optional.empty(), Optional.empty(),
      Optional.empty());

  /** A SASL mechanism and the user it signs in as. */
  public record Sasl(String mechanism, String username, String password) {
    public Sasl {
      if (!LOGIN_MODULES.containsKey(mechanism)) {
        throw new ConfigException("kafka.sasl-mechanism must be one of " + LOGIN_MODULES.keySet() + ", got '"
            + mechanism + "'");
      }
      if (username.isEmpty() || password.isEmpty()) {
        throw new ConfigException("kafka.sasl-mechanism needs kafka.sasl-username and kafka.sasl-password");
      }
    }

    @Override
    public String toString() {
      return mechanism + " as " + username;
    }
  }

  public KafkaSecurity {
    protocol = protocol.toUpperCase(Locale.ROOT);
    if (!PROTOCOLS.contains(protocol)) {
      throw new ConfigException("kafka.security-protocol must be one of " + PROTOCOLS + ", got '" + protocol + "'");
    }
    boolean tls = protocol.endsWith("SSL");
    if (!tls && (truststore.isPresent() || keystore.isPresent())) {
      throw new ConfigException("kafka.ssl-truststore-* and kafka.ssl-keystore-* need kafka.security-protocol SSL"
          + " or SASL_SSL, not " + protocol);
    }
    if (protocol.startsWith("SASL") != sasl.isPresent()) {
      throw new ConfigException("kafka.security-protocol " + protocol + (sasl.isPresent()
          ? " does not use kafka.sasl-mechanism" : " needs kafka.sasl-mechanism, kafka.sasl-username and kafka.sasl-password"));
    }
  }

  /** The Kafka client properties these settings are (none for PLAINTEXT). */
  public Map<String, String> clientSettings() {
    Map<String, String> settings = new LinkedHashMap<>();
    if (protocol.equals("PLAINTEXT")) {
      return settings;
    }
    settings.put("security.protocol", protocol);
    truststore.ifPresent(store -> store.putInto(settings, "ssl.truststore."));
    keystore.ifPresent(store -> store.putInto(settings, "ssl.keystore."));
    sasl.ifPresent(login -> {
      settings.put("sasl.mechanism", login.mechanism());
      settings.put("sasl.jaas.config", LOGIN_MODULES.get(login.mechanism()) + " required username=\""
          + quoted(login.username()) + "\" password=\"" + quoted(login.password()) + "\";");
    });
    return settings;
  }

  private static String quoted(String value) {
    return value.replace("\\", "\\\\").replace("\"", "\\\"");
  }
}
