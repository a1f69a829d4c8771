package io.seqsync.localstack;

import java.nio.file.Path;

/**
 * A streaming replica of a PostgreSQL primary on this machine, in a process of its own
 * (scripts/run-cluster): {@code --primary JDBC_URL --dir DIR --port PORT [--slot NAME]}. SIGTERM
 * stops it; a replica server an earlier, killed run left on {@code DIR} is stopped first. Prints its
 * address, then {@link #READY}.
 */
public final class LocalPostgresReplicaMain {
  /** What it prints once the replica serves. */
  public static final String READY = "seqsync postgres replica ready";

  private LocalPostgresReplicaMain() {}

  public static void main(String[] args) throws InterruptedException {
    String primary = null;
    Path dir = null;
    int port = 0;
    String slot = "seqsync_replica_1";
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--primary" -> primary = args[i + 1];
        case "--dir" -> dir = Path.of(args[i + 1]);
        case "--port" -> port = Integer.parseInt(args[i + 1]);
        case "--slot" -> slot = args[i + 1];
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    if (primary == null || dir == null) {
      throw new IllegalArgumentException("usage: --primary JDBC_URL --dir DIR [--port PORT] [--slot NAME]");
    }
    Path data = dir.toAbsolutePath().resolve("data");
    LeftoverProcess.stop("PostgreSQL replica", data.resolve("postmaster.pid"), "-D " + data + " ");
    LocalPostgresReplica replica = LocalPostgresReplica.start(primary, dir, port, slot);
    Runtime.getRuntime().addShutdownHook(new Thread(replica::close, "postgres-replica-shutdown"));
    System.out.println("postgres replica " + replica.jdbcUrl());
    System.out.println(READY);
    System.out.flush();
    Thread.currentThread().join();
  }
}
