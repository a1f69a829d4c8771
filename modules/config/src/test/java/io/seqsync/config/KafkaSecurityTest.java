package io.seqsync.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** kafka.security-protocol, kafka.ssl-* and kafka.sasl-* become the client properties every Kafka client gets. */
class KafkaSecurityTest {
  @Test
  void plaintextAddsNothingAndAnEmbeddedBrokerIsAlwaysPlain() {
    assertThat(ConfigLoader.of(Map.of()).kafka().security().clientSettings()).isEmpty();
    SeqsyncConfig secured = ConfigLoader.of(Map.of("kafka.security-protocol", "SSL"));
    Endpoints embedded = new Endpoints("127.0.0.1:9092", null, null, null, null, null);
    assertThat(KafkaConnection.of(secured.kafka(), embedded)).isEqualTo(KafkaConnection.plain("127.0.0.1:9092"));
  }

  @Test
  void saslSslGivesTheTruststoreKeystoreAndAScramLogin() {
    SeqsyncConfig config = ConfigLoader.of(Map.of(
        "kafka.bootstrap-servers", "k1:9093",
        "kafka.security-protocol", "sasl_ssl",
        "kafka.ssl-truststore-location", "/etc/ca.p12",
        "kafka.ssl-truststore-password", "trust-pass",
        "kafka.ssl-keystore-location", "/etc/app.jks",
        "kafka.ssl-keystore-type", "JKS",
        "kafka.sasl-mechanism", "scram-sha-512",
        "kafka.sasl-username", "seqsync-app",
        "kafka.sasl-password", "pa\"ss"));
    KafkaConnection connection = KafkaConnection.of(config.kafka(), Endpoints.resolve(config,
        new Endpoints(null, null, null, null, null, null)));
    assertThat(connection.with(Map.of("client.id", "x"))).containsAllEntriesOf(Map.of(
        "bootstrap.servers", "k1:9093",
        "client.id", "x",
        "security.protocol", "SASL_SSL",
        "ssl.truststore.location", "/etc/ca.p12",
        "ssl.truststore.password", "trust-pass",
        "ssl.truststore.type", "PKCS12",
        "ssl.keystore.location", "/etc/app.jks",
        "ssl.keystore.type", "JKS",
        "sasl.mechanism", "SCRAM-SHA-512",
        "sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required"
            + " username=\"seqsync-app\" password=\"pa\\\"ss\";"));
    assertThat(connection.properties()).containsEntry("security.protocol", "SASL_SSL");
    assertThat(connection.toString()).isEqualTo("k1:9093 (SASL_SSL)");
    assertThat(config.kafka().toString()).doesNotContain("trust-pass").doesNotContain("pa\"ss");
  }

  @Test
  void inconsistentSettingsAreRefusedWhenTheConfigurationIsRead() {
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("kafka.security-protocol", "TLS")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("kafka.security-protocol");
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("kafka.security-protocol", "SASL_SSL")))
        .hasMessageContaining("kafka.sasl-mechanism");
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("kafka.security-protocol", "SASL_SSL",
        "kafka.sasl-mechanism", "SCRAM-SHA-512", "kafka.sasl-username", "u")))
        .hasMessageContaining("kafka.sasl-password");
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("kafka.security-protocol", "SASL_SSL",
        "kafka.sasl-mechanism", "GSSAPI", "kafka.sasl-username", "u", "kafka.sasl-password", "p")))
        .hasMessageContaining("SCRAM-SHA-512");
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("kafka.sasl-mechanism", "PLAIN", "kafka.sasl-username", "u",
        "kafka.sasl-password", "p"))).hasMessageContaining("does not use");
    assertThatThrownBy(() -> ConfigLoader.of(Map.of("kafka.ssl-truststore-location", "/etc/ca.p12")))
        .hasMessageContaining("SSL");
  }
}
