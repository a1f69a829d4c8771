package io.seqsync.ingress;

import io.seqsync.localstack.LocalPostgres;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * What a test that only fetches needs: a PostgreSQL of its own and a command publisher to an
 * address where nothing listens (fetches never touch Kafka). Apps on it get fresh databases.
 */
final class FetchStack implements AutoCloseable {
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
    return new TestApp(postgres, publisher, new ReplyWaiter(), Duration.ofSeconds(1), 1024, fetchSettings, null);
  }

  @Override
  public void close() {
    publisher.close();
    postgres.close();
  }
}
