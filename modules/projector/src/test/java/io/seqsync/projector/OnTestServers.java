package io.seqsync.projector;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * A test class on its own {@link TestServers}: started under the class's temp dir before its first
 * test, closed after its last. The fields are static and shared by the subclasses, which is safe
 * because test classes run one after another (no parallel execution is configured).
 */
abstract class OnTestServers {
  @TempDir static Path dir;
  static TestServers servers;

  @BeforeAll
  static void startServers() {
    servers = TestServers.start(dir);
  }

  @AfterAll
  static void stopServers() {
    servers.close();
  }
}
