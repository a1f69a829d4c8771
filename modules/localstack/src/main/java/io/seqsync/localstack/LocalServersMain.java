package io.seqsync.localstack;

import io.seqsync.config.ConfigLoader;
import io.seqsync.config.SeqsyncConfig;

/**
 * The embedded PostgreSQL and Redis alone, in a process of their own, for several app instances
 * to share (scripts/run-cluster): configured as the app is (SEQSYNC_DATA_DIR,
 * SEQSYNC_POSTGRES_EMBEDDED_PORT, SEQSYNC_REDIS_EMBEDDED_PORT, ...), with Kafka configured
 * (SEQSYNC_KAFKA_BOOTSTRAP_SERVERS: a cluster of its own) since none is embedded here. Both
 * servers are supervised (started again when they die) while this process runs; SIGTERM stops
 * them. Prints their addresses, then {@link #READY}.
 */
public final class LocalServersMain {
  /** What it prints once both servers serve. */
  public static final String READY = "seqsync local servers ready";

  private LocalServersMain() {}

  public static void main(String[] args) throws InterruptedException {
    SeqsyncConfig config = ConfigLoader.fromEnvironment();
    if (config.kafka().bootstrapServers().isEmpty()) {
      throw new IllegalArgumentException("SEQSYNC_KAFKA_BOOTSTRAP_SERVERS must name the Kafka cluster:"
          + " this process starts PostgreSQL and Redis only");
    }
    LocalStack stack = LocalStack.start(config);
    Runtime.getRuntime().addShutdownHook(new Thread(stack::close, "local-servers-shutdown"));
    System.out.println("postgres " + stack.postgresJdbcUrl() + " user " + stack.postgresUser());
    System.out.println("redis " + stack.redisUri());
    System.out.println(READY);
    System.out.flush();
    Thread.currentThread().join();
  }
}
