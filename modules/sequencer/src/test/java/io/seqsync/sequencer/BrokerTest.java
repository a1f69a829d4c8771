package io.seqsync.sequencer;

import io.seqsync.localstack.EmbeddedKafka;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** A test class with a real in-process KRaft broker for all its tests, its data in a temporary directory. */
abstract class BrokerTest {
  @TempDir static Path dir;
  static EmbeddedKafka kafka;

  @BeforeAll
  static void startBroker() {
    kafka = EmbeddedKafka.start(dir.resolve("kafka"), 0);
  }

  @AfterAll
  static void stopBroker() {
    kafka.close();
  }
}
