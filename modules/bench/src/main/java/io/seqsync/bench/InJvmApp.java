package io.seqsync.bench;

import io.seqsync.app.SeqsyncApp;
import io.seqsync.config.ConfigLoader;
import io.seqsync.config.LimitsSettings;
import io.seqsync.config.SeqsyncConfig;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** The whole app in the benchmark's JVM: embedded Kafka, PostgreSQL and Redis on free ports, HTTP on loopback. */
public final class InJvmApp {
  private InJvmApp() {}

  /**
   * The app's configuration for a benchmark: {@code settings} over the embedded defaults, with the
   * abuse limits and the fetch bucket raised out of the way (its devices send, page and connect
   * far faster than people; every bucket is still checked, so its cost is in the figures).
   */
  public static SeqsyncConfig config(Path dataDir, Map<String, String> settings) {
    Map<String, String> all = new HashMap<>(LimitsSettings.raisedTo(100_000));
    all.putAll(Map.of("data-dir", dataDir.toString(), "kafka.embedded-port", "0", "postgres.embedded-port", "0",
        "redis.embedded-port", "0", "http.host", "127.0.0.1", "http.port", "0", "fetch.rate", "100000",
        "fetch.burst", "100000"));
    all.putAll(settings);
    return ConfigLoader.of(all);
  }

  public static SeqsyncApp start(SeqsyncConfig config) {
    long began = System.nanoTime();
    SeqsyncApp app = SeqsyncApp.start(config);
    System.err.printf("   app started in %.1f s, HTTP on port %d%n", (System.nanoTime() - began) / 1e9, app.httpPort());
    return app;
  }
}
