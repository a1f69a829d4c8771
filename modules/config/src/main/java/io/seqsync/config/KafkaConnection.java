package io.seqsync.config;

import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

/**
 * Where a Kafka client connects and how: the bootstrap servers and the security settings
 * ({@link KafkaSecurity#clientSettings}) every client of this process uses. {@link #toString} names the
 * servers and any protocol but PLAINTEXT, never a password. Immutable.
 */
public record KafkaConnection(String bootstrapServers, Map<String, String> clientSettings) {
  private static final String BOOTSTRAP = "bootstrap.servers";

  public KafkaConnection {
    clientSettings = Map.copyOf(clientSettings);
  }

  /** The servers at {@code bootstrapServers}, without TLS or authentication. */
  public static KafkaConnection plain(String bootstrapServers) {
    return new KafkaConnection(bootstrapServers, Map.of());
  }

  /** The configured Kafka with its security settings, or (none configured) the embedded one at {@code endpoints}, plain. */
  public static KafkaConnection of(KafkaSettings config, Endpoints endpoints) {
    return config.bootstrapServers().isPresent()
        ? configured(config, endpoints.kafkaBootstrapServers()) : plain(endpoints.kafkaBootstrapServers());
  }

  /** The servers at {@code bootstrapServers}, reached with {@code config}'s security settings. */
  public static KafkaConnection configured(KafkaSettings config, String bootstrapServers) {
    return new KafkaConnection(bootstrapServers, config.security().clientSettings());
  }

  /** The base client properties (servers and security), for a client to add its own to. */
  public Properties properties() {
    Properties properties = new Properties();
    properties.putAll(with(Map.of()));
    return properties;
  }

  /** The base client properties with {@code settings} added. */
  public Map<String, Object> with(Map<String, ?> settings) {
    Map<String, Object> all = new HashMap<>(clientSettings);
    all.put(BOOTSTRAP, bootstrapServers);
    all.putAll(settings);
    return all;
  }

  @Override
  public String toString() {
    String protocol = clientSettings.get("security.protocol");
    return protocol == null ? bootstrapServers : bootstrapServers + " (" + protocol + ")";
  }
}
