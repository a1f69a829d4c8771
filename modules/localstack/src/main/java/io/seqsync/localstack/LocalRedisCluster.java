package io.seqsync.localstack;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.util.JedisClusterCRC16;
import redis.embedded.core.ExecutableProvider;

/**
 * A real Redis Cluster of {@code masters} masters (no replicas) on 127.0.0.1, for tests and local
 * runs: one {@code redis-server --cluster-enabled yes} child process per master on a free port,
 * each in a directory of its own under {@code dir}, the 16,384 slots split evenly between them by
 * CLUSTER ADDSLOTSRANGE and joined by CLUSTER MEET; {@link #start} returns once every node says
 * {@code cluster_state:ok} and knows every master. The machine's {@code /usr/bin/redis-server}
 * (Redis 7 on Debian) when there is one, else embedded-redis's packaged binary (6.2). No
 * persistence: a test cluster starts empty.
 */
public final class LocalRedisCluster implements AutoCloseable {
  private static final int SLOTS = 16_384;
  // A node's cluster bus listens on its port + 10,000.
  private static final int BUS_OFFSET = 10_000;
  private static final long READY_MILLIS = 30_000;
  private static final Path SYSTEM_SERVER = Path.of("/usr/bin/redis-server");

  private final List<Integer> ports;
  private final List<Process> processes = new ArrayList<>();
  private Path dir;
  private String server;

  private LocalRedisCluster(List<Integer> ports) {
    this.ports = List.copyOf(ports);
  }

  /** Starts a cluster of {@code masters} nodes under {@code dir} and returns once it is ok. */
  public static LocalRedisCluster start(Path dir, int masters) {
    List<Integer> ports = new ArrayList<>();
    while (ports.size() < masters) {
      int port = FreePorts.pick();
      if (port + BUS_OFFSET <= 65_535 && !ports.contains(port) && busPortFree(port)) {
        ports.add(port);
      }
    }
    LocalRedisCluster cluster = new LocalRedisCluster(ports);
    try {
      cluster.dir = dir.toAbsolutePath();
      cluster.server = serverBinary();
      for (int port : ports) {
        cluster.processes.add(launch(cluster.server, cluster.nodeDir(port), port));
      }
      cluster.form();
    } catch (RuntimeException e) {
      cluster.close();
      throw e;
    }
    return cluster;
  }

  /** {@code redis://127.0.0.1:p1,127.0.0.1:p2,...}: the cluster's nodes, as {@code redis.uri} takes them. */
  public String uri() {
    return "redis://" + ports.stream().map(port -> "127.0.0.1:" + port).collect(Collectors.joining(","));
  }

  /** The nodes' ports, in the order of their slot ranges. */
  public List<Integer> ports() {
    return ports;
  }

  /**
   * Kills master {@code index} (SIGKILL) and starts it again on its port and nodes.conf: the same
   * node, serving the same slots, as a new process without the data it held (no persistence), as
   * after a crash of a master without a replica. Returns once the cluster is ok again.
   */
  public synchronized void restartMaster(int index) {
    Process old = processes.get(index);
    old.destroyForcibly();
    try {
      old.waitFor(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while killing a master", e);
    }
    int port = ports.get(index);
    processes.set(index, launch(server, nodeDir(port), port));
    awaitOk(System.currentTimeMillis() + READY_MILLIS);
  }

  /** The index of the master serving {@code key}'s hash slot. */
  public int masterOf(String key) {
    int slot = JedisClusterCRC16.getSlot(key);
    int index = ports.size() - 1;
    while (slot < index * SLOTS / ports.size()) {
      index--;
    }
    return index;
  }

  private Path nodeDir(int port) {
    return dir.resolve("node-" + port);
  }

  private static boolean busPortFree(int port) {
    try {
      FreePorts.requireFree(port + BUS_OFFSET);
      return true;
    } catch (IllegalStateException busy) {
      return false;
    }
  }

  private static String serverBinary() {
    if (Files.isExecutable(SYSTEM_SERVER)) {
      return SYSTEM_SERVER.toString();
    }
    try {
      File packaged = ExecutableProvider.newJarResourceProvider().get();
      return packaged.getAbsolutePath();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot unpack embedded-redis's redis-server", e);
    }
  }

  private static Process launch(String server, Path dir, int port) {
    try {
      Files.createDirectories(dir);
      return new ProcessBuilder(server, "--port", Integer.toString(port), "--bind", "127.0.0.1",
          "--cluster-enabled", "yes", "--cluster-config-file", dir.resolve("nodes.conf").toString(),
          "--cluster-node-timeout", "3000", "--dir", dir.toString(), "--appendonly", "no", "--save", "")
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("redis.log").toFile()))
          .start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + server + " on port " + port, e);
    }
  }

  // Slots to each node, then every node met through the first; waits until all agree it is ok.
  private void form() {
    long deadline = System.currentTimeMillis() + READY_MILLIS;
    for (int i = 0; i < ports.size(); i++) {
      int first = i * SLOTS / ports.size();
      int last = (i + 1) * SLOTS / ports.size() - 1;
      try (Jedis node = connect(ports.get(i), deadline)) {
        node.clusterAddSlots(IntStream.rangeClosed(first, last).toArray());
      }
    }
    try (Jedis first = connect(ports.get(0), deadline)) {
      ports.subList(1, ports.size()).forEach(port -> first.clusterMeet("127.0.0.1", port));
    }
    awaitOk(deadline);
  }

  private void awaitOk(long deadline) {
    for (int port : ports) {
      try (Jedis node = connect(port, deadline)) {
        while (!node.clusterInfo().contains("cluster_state:ok")
            || node.clusterNodes().lines().filter(line -> line.contains("master")).count() < ports.size()) {
          waitUntil(deadline, "cluster_state:ok on port " + port);
        }
      }
    }
  }

  private static Jedis connect(int port, long deadline) {
    while (true) {
      Jedis jedis = new Jedis("127.0.0.1", port);
      try {
        jedis.ping();
        return jedis;
      } catch (RuntimeException notYet) {
        jedis.close();
        waitUntil(deadline, "redis-server to answer on port " + port);
      }
    }
  }

  private static void waitUntil(long deadline, String what) {
    if (System.currentTimeMillis() > deadline) {
      throw new IllegalStateException("Redis Cluster: waited " + READY_MILLIS + " ms for " + what);
    }
    try {
      Thread.sleep(50);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for " + what, e);
    }
  }

  /** Stops every node (SIGTERM, then SIGKILL after 5 s). */
  @Override
  public synchronized void close() {
    processes.forEach(Process::destroy);
    for (Process process : processes) {
      try {
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
          process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
