package io.seqsync.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Addresses in logs: the query and any user:password@ left out. */
class RedactionTest {
  @Test
  void credentialsAreLeftOut() {
    assertThat(Redaction.withoutSecrets("jdbc:postgresql://db:5432/seqsync?user=app&password=hunter2&sslmode=require"))
        .isEqualTo("jdbc:postgresql://db:5432/seqsync");
    assertThat(Redaction.withoutSecrets("redis://app:hunter2@cache:6379")).isEqualTo("redis://***@cache:6379");
    assertThat(Redaction.withoutSecrets("rediss://:hunter2@a:7000,b:7000")).isEqualTo("rediss://***@a:7000,b:7000");
    assertThat(Redaction.withoutSecrets("redis://app:pw@a:7000,app:pw@b:7000")).isEqualTo("redis://***@a:7000,***@b:7000");
  }

  @Test
  void addressesWithoutCredentialsStayAsTheyAre() {
    assertThat(Redaction.withoutSecrets("kafka-1:9092,kafka-2:9092")).isEqualTo("kafka-1:9092,kafka-2:9092");
    assertThat(Redaction.withoutSecrets("redis://127.0.0.1:16379")).isEqualTo("redis://127.0.0.1:16379");
    assertThat(Redaction.withoutSecrets(null)).isNull();
  }
}
