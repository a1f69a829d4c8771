package io.seqsync.app;

import io.seqsync.testkit.ApiClient;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** One app on the real stack per test class, started before its first test and closed after its last. */
abstract class EndToEndTest {
  @TempDir static Path dir;
  static SeqsyncApp app;

  @BeforeAll
  static void startApp() {
    app = EndToEnd.start(dir);
  }

  @AfterAll
  static void stopApp() {
    app.close();
  }

  static ApiClient client(long userId, String deviceId) {
    return EndToEnd.client(app, userId, deviceId);
  }
}
