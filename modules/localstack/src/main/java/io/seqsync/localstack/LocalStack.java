package io.seqsync.localstack;

import io.seqsync.config.EmbeddedServers;
import io.seqsync.config.Endpoints;
import io.seqsync.config.Redaction;
import io.seqsync.config.SeqsyncConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kafka, PostgreSQL, Redis and an S3 server (attachments) for seqsync: each one is the configured external server, or, when
 * none is configured, an embedded one under {@code dataDir}. So the whole backend runs on a machine
 * with nothing but a JDK. The embedded S3 server gets its port at the start but starts only when
 * asked ({@link #startObjectStore}): most users of a stack never store an object. The embedded PostgreSQL and Redis, child processes, are started again
 * when they die ({@link ServerSupervisor}); the embedded Kafka runs in this JVM and ends with it.
 * Which servers it starts, and where the others are, is {@link Endpoints}'s to say; the app finds
 * this module through {@link EmbeddedStack} (a build without it has no embedded servers).
 */
public final class LocalStack implements EmbeddedServers.Running {
  private static final Logger log = LoggerFactory.getLogger(LocalStack.class);

  private final Endpoints endpoints;
  private final List<AutoCloseable> started;
  private final Optional<EmbeddedObjectStore> objectStore;

  private LocalStack(Endpoints endpoints, List<AutoCloseable> started, Optional<EmbeddedObjectStore> objectStore) {
    this.endpoints = endpoints;
    this.started = started;
    this.objectStore = objectStore;
  }

  /**
   * Starts the embedded servers that {@code config} does not replace with an external address, in
   * parallel since each takes seconds, and returns when all of them serve requests.
   */
  public static LocalStack start(SeqsyncConfig config) {
    Path dataDir = config.dataDir();
    boolean anyEmbedded = !Endpoints.unconfigured(config).isEmpty();
    DataDirLock lock = anyEmbedded ? DataDirLock.acquire(dataDir) : null;
    try {
      return start(config, dataDir, lock);
    } catch (RuntimeException e) {
      if (lock != null) {
        lock.close();
      }
      throw e;
    }
  }

  private static LocalStack start(SeqsyncConfig config, Path dataDir, DataDirLock lock) {
    // Kafka starts in this JVM, next to PostgreSQL and Redis; those two are child processes and start
    // one after the other: a process forked while another thread still has a freshly unpacked server
    // binary open for writing inherits that descriptor, and exec of the binary then fails with "Text
    // file busy" (ETXTBSY; JDK-8068370). Seen in a test run: redis-server unpacked while PostgreSQL's
    // initdb was being forked.
    ExecutorService executor = startThread("localstack-start-kafka");
    ExecutorService childProcesses = startThread("localstack-start-processes");
    try {
      CompletableFuture<EmbeddedKafka> kafka = startUnless(config.kafka().bootstrapServers(), "Kafka",
          dataDir.resolve("kafka"), dir -> EmbeddedKafka.start(dir, config.kafka().embeddedPort()),
          EmbeddedKafka::bootstrapServers, executor);
      // Servers left running by a killed seqsync are stopped first, both at once (a signal forks
      // nothing; each takes a second or two to shut down); safe: this stack holds the directory's lock.
      CompletableFuture<Void> postgresLeftover = stopLeftoverUnless(config.postgres().jdbcUrl(),
          () -> LocalPostgres.stopLeftover(dataDir.resolve("postgres")));
      CompletableFuture<Void> redisLeftover = stopLeftoverUnless(config.redis().uri(),
          () -> LocalRedis.stopLeftover(dataDir.resolve("redis")));
      CompletableFuture<LocalPostgres> postgres = startUnless(config.postgres().jdbcUrl(), "PostgreSQL",
          dataDir.resolve("postgres"), dir -> {
            postgresLeftover.join();
            return LocalPostgres.start(dir, config.postgres().embeddedPort(), config.postgres().embeddedFsync());
          },
          LocalPostgres::jdbcUrl, childProcesses);
      CompletableFuture<LocalRedis> redis = startUnless(config.redis().uri(), "Redis",
          dataDir.resolve("redis"), dir -> {
            redisLeftover.join();
            return LocalRedis.start(dir, config.redis().embeddedPort());
          },
          LocalRedis::uri, childProcesses);
      Optional<EmbeddedObjectStore> objects = config.objectStore().endpoint().isPresent() ? Optional.empty()
          : Optional.of(new EmbeddedObjectStore(dataDir.resolve("s3"), config.objectStore()));
      List<AutoCloseable> started = new ArrayList<>();
      if (lock != null) {
        started.add(lock); // closed last, once every server stopped
      }
      started.addAll(awaitAll(List.of(kafka, postgres, redis)));

      EmbeddedKafka embeddedKafka = kafka.join();
      LocalPostgres embeddedPostgres = postgres.join();
      LocalRedis embeddedRedis = redis.join();
      List<ServerSupervisor.Server> children = new ArrayList<>();
      Optional.ofNullable(embeddedPostgres).ifPresent(server -> children.add(server.supervised()));
      Optional.ofNullable(embeddedRedis).ifPresent(server -> children.add(server.supervised()));
      if (!children.isEmpty()) {
        started.add(ServerSupervisor.start(children)); // closed first: a clean stop is not a death
      }
      Endpoints embedded = new Endpoints(
          embeddedKafka == null ? null : embeddedKafka.bootstrapServers(),
          embeddedPostgres == null ? null : embeddedPostgres.jdbcUrl(),
          embeddedPostgres == null ? null : embeddedPostgres.user(),
          embeddedPostgres == null ? null : embeddedPostgres.password(),
          embeddedRedis == null ? null : embeddedRedis.uri(),
          objects.map(EmbeddedObjectStore::url).orElse(null));
      return new LocalStack(Endpoints.resolve(config, embedded), started, objects);
    } finally {
      executor.shutdown();
      childProcesses.shutdown();
    }
  }

  private static ExecutorService startThread(String name) {
    return Executors.newSingleThreadExecutor(runnable -> {
      Thread thread = new Thread(runnable, name);
      thread.setDaemon(true);
      return thread;
    });
  }

  /** Where every server answers: the embedded ones started here, the configured ones where configured. */
  @Override
  public Endpoints endpoints() {
    return endpoints;
  }

  public String kafkaBootstrapServers() {
    return endpoints.kafkaBootstrapServers();
  }

  public String postgresJdbcUrl() {
    return endpoints.postgresJdbcUrl();
  }

  public String postgresUser() {
    return endpoints.postgresUser();
  }

  public String postgresPassword() {
    return endpoints.postgresPassword();
  }

  public String redisUri() {
    return endpoints.redisUri();
  }

  /** Starts the embedded S3 server unless it runs or an external one is configured; returns once it serves. */
  @Override
  public void startObjectStore() {
    objectStore.ifPresent(EmbeddedObjectStore::start);
  }

  /** Stops the embedded servers, the last started first; the external ones are not ours to stop. */
  @Override
  public void close() {
    try {
      objectStore.ifPresent(EmbeddedObjectStore::close); // before the data directory's lock goes
    } finally {
      closeAll(started);
    }
  }

  private static CompletableFuture<Void> stopLeftoverUnless(Optional<String> external, Runnable stop) {
    return external.isPresent() ? CompletableFuture.completedFuture(null) : CompletableFuture.runAsync(stop);
  }

  // A null result stands for "external, nothing started".
  private static <T> CompletableFuture<T> startUnless(
      Optional<String> external, String name, Path dir, Function<Path, T> embedded, Function<T, String> address,
      ExecutorService executor) {
    if (external.isPresent()) {
      log.info("{}: external at {}", name, Redaction.withoutSecrets(external.get()));
      return CompletableFuture.completedFuture(null);
    }
    return CompletableFuture.supplyAsync(() -> {
      long begin = System.nanoTime();
      T server = embedded.apply(dir);
      log.info("{}: embedded at {}, data in {}, started in {} ms",
          name, address.apply(server), dir, (System.nanoTime() - begin) / 1_000_000);
      return server;
    }, executor);
  }

  // Waits for every start, failed or not, so that on failure the servers that did come up are
  // stopped rather than left running.
  private static List<AutoCloseable> awaitAll(List<CompletableFuture<? extends AutoCloseable>> starts) {
    CompletableFuture.allOf(starts.toArray(CompletableFuture[]::new)).exceptionally(failure -> null).join();
    List<AutoCloseable> started = new ArrayList<>();
    RuntimeException failure = null;
    for (CompletableFuture<? extends AutoCloseable> start : starts) {
      try {
        AutoCloseable server = start.join();
        if (server != null) {
          started.add(server);
        }
      } catch (CompletionException e) {
        RuntimeException cause = e.getCause() instanceof RuntimeException runtime ? runtime : e;
        if (failure == null) {
          failure = cause;
        } else {
          failure.addSuppressed(cause);
        }
      }
    }
    if (failure != null) {
      closeAll(started);
      throw failure;
    }
    return started;
  }

  private static void closeAll(List<AutoCloseable> servers) {
    RuntimeException failure = null;
    for (int i = servers.size() - 1; i >= 0; i--) {
      try {
        servers.get(i).close();
      } catch (Exception e) {
        RuntimeException wrapped = e instanceof RuntimeException runtime ? runtime : new IllegalStateException(e);
        if (failure == null) {
          failure = wrapped;
        } else {
          failure.addSuppressed(wrapped);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

}
