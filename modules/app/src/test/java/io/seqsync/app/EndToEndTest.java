package io.seqsync.app;

import io.seqsync.testkit.ApiClient;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An end-to-end test class on the real stack: the app the whole JVM's end-to-end classes share, or
 * one of its own when marked {@link EndToEndApps.OwnApp} (see {@link EndToEndApps}). A class on the
 * shared app uses user ids and conversations no other class uses.
 */
@ExtendWith(EndToEndApps.class)
abstract class EndToEndTest {
  /** This class's app, set by {@link EndToEndApps} before the class's own {@code @BeforeAll}. */
  static SeqsyncApp app;

  static ApiClient client(long userId, String deviceId) {
    return EndToEnd.client(app, userId, deviceId);
  }
}
