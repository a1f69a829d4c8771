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
 * The faults of a chaos run, each done to the cluster {@code scripts/run-cluster} started (it
 * knows every part's pid and how to start it again): SIGKILL and a restart after
 * {@code downSeconds}, or SIGSTOP and SIGCONT. Every step is logged to stderr with its time.
 */
final class Faults {
  /** One fault: what it does, then what ends it; {@link #run} does both, {@code downSeconds} apart. */
  record Fault(String name, String description) {}

  static final List<Fault> ALL = List.of(
      new Fault("broker", "kill -9 Kafka node 3, restart it 15 s later"),
      new Fault("leader", "kill -9 the Kafka node leading the busy conversation's commands partition, restart it 15 s later"),
      new Fault("app", "kill -9 app instance 1, restart it 15 s later"),
      new Fault("redis", "kill -9 the apps' Redis: a master of the Redis Cluster, restarted 15 s later (or the one embedded Redis, which its supervisor starts again)"),
      new Fault("postgres", "SIGSTOP every PostgreSQL process for 10 s, then SIGCONT"));

  private final Path cluster;
  private final String bootstrapServers;
  private final String commandsTopic;
  private final int partitions;
  private final int downSeconds;

  Faults(Path cluster, String bootstrapServers, String commandsTopic, int partitions, int downSeconds) {
    this.cluster = cluster;
    this.bootstrapServers = bootstrapServers;
    this.commandsTopic = commandsTopic;
    this.partitions = partitions;
    this.downSeconds = downSeconds;
  }

  /** Does {@code fault} and undoes it; returns once the part is back (or restarting by itself). */
  void run(Fault fault) throws Exception {
    switch (fault.name()) {
      case "broker" -> killAndRestart("kafka-3");
      case "leader" -> killAndRestart("kafka-" + busyLeader());
      case "app" -> killAndRestart("app-1");
      case "redis" -> {
        if (cluster("app-redis").contains(",")) {
          killAndRestart("redis-1");
        } else {
          cluster("kill", "redis");
        }
      }
      case "postgres" -> stall(Long.parseLong(cluster("pid", "postgres").trim()), 10);
      default -> throw new IllegalArgumentException("no fault " + fault.name());
    }
  }

  private void killAndRestart(String part) throws Exception {
    cluster("kill", part);
    Thread.sleep(TimeUnit.SECONDS.toMillis(downSeconds));
    cluster("restart", part);
  }

  // The postmaster and every backend: a stopped postmaster alone leaves the open connections working.
  private static void stall(long postmaster, int seconds) throws Exception {
    List<String> pids = new ArrayList<>(List.of(String.valueOf(postmaster)));
    ProcessHandle.of(postmaster).orElseThrow(() -> new IllegalStateException("no PostgreSQL at pid " + postmaster))
        .descendants().forEach(child -> pids.add(String.valueOf(child.pid())));
    signal("-STOP", pids);
    ChaosRun.log("SIGSTOP PostgreSQL (" + pids.size() + " processes) for " + seconds + " s");
    Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
    signal("-CONT", pids);
    ChaosRun.log("SIGCONT PostgreSQL");
  }

  private static void signal(String signal, List<String> pids) throws Exception {
    List<String> command = new ArrayList<>(List.of("kill", signal));
    command.addAll(pids);
    new ProcessBuilder(command).inheritIO().start().waitFor();
  }

  // The node leading the partition the busy conversation's commands go to (Kafka's default
  // partitioner: murmur2 of the key's bytes), as the cluster sees it now.
  private int busyLeader() throws Exception {
    byte[] key = SteadySender.conversation(0).getBytes(StandardCharsets.UTF_8);
    int partition = Utils.toPositive(Utils.murmur2(key)) % partitions;
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrapServers))) {
      int leader = admin.describeTopics(List.of(commandsTopic)).allTopicNames().get(30, TimeUnit.SECONDS)
          .get(commandsTopic).partitions().get(partition).leader().id();
      ChaosRun.log("the busy conversation " + SteadySender.conversation(0) + " is in partition " + partition
          + ", led by node " + leader);
      return leader;
    }
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
