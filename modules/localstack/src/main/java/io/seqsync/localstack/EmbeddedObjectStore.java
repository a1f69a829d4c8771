package io.seqsync.localstack;

import io.seqsync.config.ObjectStoreSettings;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded S3 server of a {@link LocalStack}, started on demand: its port is chosen at once, so
 * its address is known (and handed out) before it runs, and it starts at the first {@link #start}.
 * Another process could take the port in between, as with the other embedded servers' ports
 * ({@link FreePorts}): accepted for a local stack. Thread-safe.
 */
final class EmbeddedObjectStore implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(EmbeddedObjectStore.class);

  private final Path dir;
  private final ObjectStoreSettings settings;
  private final int port;
  private LocalS3 server; // guarded by this
  private boolean closed; // guarded by this

  EmbeddedObjectStore(Path dir, ObjectStoreSettings settings) {
    this.dir = dir;
    this.settings = settings;
    this.port = FreePorts.orPick(settings.embeddedPort());
  }

  String url() {
    return LocalS3.url(port);
  }

  /** Starts the server unless it runs; returns once it serves. */
  synchronized void start() {
    if (closed) {
      throw new IllegalStateException("the local stack is closed");
    }
    if (server == null) {
      long begin = System.nanoTime();
      server = LocalS3.start(dir, port, settings.accessKey(), settings.secretKey());
      log.info("S3: embedded at {}, data in {}, started in {} ms", url(), dir, (System.nanoTime() - begin) / 1_000_000);
    }
  }

  @Override
  public synchronized void close() {
    closed = true;
    if (server != null) {
      server.close();
      server = null;
    }
  }
}
