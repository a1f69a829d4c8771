package io.seqsync.app;

import io.seqsync.localstack.ChildJvm;
import io.seqsync.localstack.KafkaClusterNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.stream.IntStream;
import org.apache.kafka.common.Uuid;

/**
 * A KRaft cluster of {@code size} combined broker+controller nodes for tests, each in a child JVM
 * of its own ({@link KafkaClusterNode}) on free ports with its data under a directory, so that a
 * node can be killed as a machine dies (SIGKILL) and started again on its data.
 */
final class LocalKafkaCluster implements AutoCloseable {
  // Small heaps and the client compiler only: three brokers share two cores with the app.
  private static final List<String> NODE_JVM_OPTIONS =
      List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xss512k");
  // A restarted node catches up with the quorum's metadata first: 10-15 s here, and up to two
  // minutes on a machine loaded far beyond its cores (seen in a chaos run at load 20).
  private static final Duration START = Duration.ofSeconds(180);

  private final List<ChildJvm> nodes = new ArrayList<>();
  private final String bootstrapServers;

  private LocalKafkaCluster(Path dir, int size) {
    List<KafkaClusterNode.Ports> ports = IntStream.range(0, size)
        .mapToObj(node -> new KafkaClusterNode.Ports(freePort(), freePort())).toList();
    String clusterId = Uuid.randomUuid().toString();
    for (int nodeId = 1; nodeId <= size; nodeId++) {
      nodes.add(new ChildJvm(KafkaClusterNode.class, NODE_JVM_OPTIONS,
          KafkaClusterNode.arguments(nodeId, dir.resolve("kafka-" + nodeId), ports, clusterId), Map.of(),
          dir.resolve("kafka-" + nodeId + ".log"), KafkaClusterNode.READY + nodeId));
    }
    this.bootstrapServers = KafkaClusterNode.bootstrapServers(ports);
  }

  /** Starts every node (together: a node waits for a quorum) and returns once each serves clients. */
  static LocalKafkaCluster start(Path dir, int size) throws IOException {
    java.nio.file.Files.createDirectories(dir);
    LocalKafkaCluster cluster = new LocalKafkaCluster(dir, size);
    try {
      cluster.startNodes(IntStream.rangeClosed(1, size).boxed().toList());
      return cluster;
    } catch (RuntimeException e) {
      cluster.close();
      throw e;
    }
  }

  String bootstrapServers() {
    return bootstrapServers;
  }

  /** SIGKILL to node {@code nodeId} (1-based): no shutdown, no flush, as a machine dies. */
  void kill(int nodeId) throws InterruptedException {
    nodes.get(nodeId - 1).kill();
  }

  /** Starts these nodes again on their data, together, and returns once each serves clients. */
  void startNodes(List<Integer> nodeIds) {
    List<CompletableFuture<Void>> starts = nodeIds.stream().map(id -> CompletableFuture.runAsync(() -> {
      try {
        nodes.get(id - 1).start(START);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    })).toList();
    try {
      CompletableFuture.allOf(starts.toArray(CompletableFuture[]::new)).join();
    } catch (CompletionException e) {
      throw e.getCause() instanceof RuntimeException runtime ? runtime : e;
    }
  }

  @Override
  public void close() {
    nodes.forEach(ChildJvm::close);
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot find a free port", e);
    }
  }
}
