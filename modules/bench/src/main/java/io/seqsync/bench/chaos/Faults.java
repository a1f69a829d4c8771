package io.seqsync.bench.chaos;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.utils.Utils;

/**
 * The faults of a chaos run, each done and undone by {@code scripts/run-cluster fault NAME DOWN_S
 * [PART]} (it knows every part's pid and how to start it again, and logs every step to stderr with
 * its time); this class finds the parts that depend on the busy conversation.
 */
record Faults(Path cluster, String bootstrapServers, String commandsTopic, int partitions, int downSeconds) {
  /** One fault: what it does, then what ends it. */
  record Fault(String name, String description) {}

  static final List<Fault> ALL = List.of(
      new Fault("broker", "kill -9 Kafka node 3, restart it 15 s later"),
      new Fault("leader", "kill -9 the Kafka node leading the busy conversation's commands partition, restart it 15 s later"),
      new Fault("app", "kill -9 app instance 1, restart it 15 s later"),
      new Fault("redis", "kill -9 the apps' Redis: a master of the Redis Cluster, restarted 15 s later (or the one embedded Redis, which its supervisor starts again)"),
      new Fault("postgres", "SIGSTOP every PostgreSQL process for 10 s, then SIGCONT"),
      new Fault("replica", "kill -9 the replica of the busy conversation's shard (its JVM, postmaster and backends), restart"
          + " it 15 s later; then pause its replay (pg_wal_replay_pause) for 15 s"),
      new Fault("shard", "kill -9 shard 2's primary (postgres-2: its JVM, postmaster and backends), restart it 15 s later"),
      new Fault("redis-cut", "cut app-3 alone off from Redis: kill -9 its proxy to the Redis Cluster (redis-proxy),"
          + " restart it 15 s later"));

  /** Does {@code fault} and undoes it; returns once the part is back (or restarting by itself). */
  void run(Fault fault) throws Exception {
    String part = switch (fault.name()) {
      case "leader" -> "kafka-" + busyLeader();
      case "replica" -> cluster("jdbc").contains(",") && busyPartition() >= partitions / 2
          ? "postgres-2-replica" : "postgres-replica";
      default -> "";
    };
    cluster("fault", fault.name(), String.valueOf(downSeconds), part);
  }

  // The node leading the partition the busy conversation's commands go to, as the cluster sees it now.
  private int busyLeader() throws Exception {
    int partition = busyPartition();
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrapServers))) {
      int leader = admin.describeTopics(List.of(commandsTopic)).allTopicNames().get(30, TimeUnit.SECONDS)
          .get(commandsTopic).partitions().get(partition).leader().id();
      ChaosRun.log("the busy conversation " + SteadySender.conversation(0) + " is in partition " + partition
          + ", led by node " + leader);
      return leader;
    }
  }

  private int busyPartition() {
    return partition(SteadySender.conversation(0), partitions);
  }

  /** The partition of {@code conv}'s commands and events (Kafka's default partitioner: murmur2 of its bytes). */
  static int partition(String conv, int partitions) {
    return Utils.toPositive(Utils.murmur2(conv.getBytes(StandardCharsets.UTF_8))) % partitions;
  }

  private String cluster(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(cluster.toString()));
    command.addAll(List.of(args));
    ChaosRun.log("scripts/run-cluster " + String.join(" ", args));
    Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (process.waitFor() != 0) {
      throw new IllegalStateException("scripts/run-cluster " + String.join(" ", args) + " failed: " + output);
    }
    return output;
  }
}
