package io.seqsync.ingress;

import io.seqsync.ingress.commands.CommandPublisher;
import io.seqsync.ingress.commands.ReplyWaiter;
import io.seqsync.localstack.LocalPostgres;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * What a test whose requests never reach Kafka needs (fetches, handshakes, requests refused before
 * anything is published): a PostgreSQL of its own and a command publisher to an address where
 * nothing listens. Apps on it get fresh databases.
 */
final class FetchStack implements AutoCloseable {
  /** The largest message content (UTF-8 bytes) the apps on this stack accept. */
  static final int MAX_CONTENT_BYTES = 1024;

  private final LocalPostgres postgres;
  private final CommandPublisher publisher;

  private FetchStack(LocalPostgres postgres, CommandPublisher publisher) {
    this.postgres = postgres;
    this.publisher = publisher;
  }

  static FetchStack start(Path dir) {
    return new FetchStack(LocalPostgres.start(dir, 0),
        UnreachableKafka.publisher());
  }

  /** An ingress with {@code fetchSettings} ({@code fetch.*} properties) on a fresh database. */
  TestApp app(Map<String, String> fetchSettings) {
    return app(fetchSettings, true);
  }

  /** An ingress as above, with or without the development sign-in. */
  TestApp app(Map<String, String> fetchSettings, boolean devSignIn) {
    return new TestApp(postgres, publisher, new ReplyWaiter(), Duration.ofSeconds(1), MAX_CONTENT_BYTES, fetchSettings,
        null, devSignIn);
  }

  /** The publisher the apps send commands to: it never reaches a broker. */
  CommandPublisher publisher() {
    return publisher;
  }

  @Override
  public void close() {
    publisher.close();
    postgres.close();
  }
}
