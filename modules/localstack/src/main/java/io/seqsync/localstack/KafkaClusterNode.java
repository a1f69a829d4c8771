package io.seqsync.localstack;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.utils.Time;

/**
 * One node of a local KRaft cluster, in a JVM of its own so that it can be killed as a machine
 * dies (SIGKILL): broker and controller in one process, every node a voter of the controller
 * quorum, on 127.0.0.1. Run by {@code scripts/run-cluster} and by the tests that take brokers away:
 * <pre>
 * java -cp seqsync-app.jar io.seqsync.localstack.KafkaClusterNode --node-id 1 --dir data-cluster/kafka-1 \
 *     --ports 19092:19093,29092:29093,39092:39093 --cluster-id &lt;22-character id&gt;
 * </pre>
 * {@code --ports} lists each node's client and controller port, node 1 first; every node of a
 * cluster is given the same list and the same cluster id (its data directory is formatted with it
 * once, and reused). Logs {@link #READY} once it serves clients; SIGTERM shuts it down cleanly.
 */
public final class KafkaClusterNode {
  /** What a node logs once it serves clients, followed by its node id. */
  public static final String READY = "seqsync kafka node ready: ";

  private KafkaClusterNode() {}

  /** The ports of one node: clients connect to {@code broker}, the quorum talks on {@code controller}. */
  public record Ports(int broker, int controller) {
    static Ports parse(String pair) {
      String[] parts = pair.split(":");
      if (parts.length != 2) {
        throw new IllegalArgumentException("--ports takes broker:controller pairs, got '" + pair + "'");
      }
      return new Ports(Integer.parseInt(parts[0].trim()), Integer.parseInt(parts[1].trim()));
    }

    @Override
    public String toString() {
      return broker + ":" + controller;
    }
  }

  /** The clients' bootstrap servers of a cluster whose nodes listen on {@code ports}. */
  public static String bootstrapServers(List<Ports> ports) {
    return ports.stream().map(node -> "127.0.0.1:" + node.broker()).collect(Collectors.joining(","));
  }

  /** The program arguments of node {@code nodeId} (1-based) of a cluster on {@code ports}. */
  public static List<String> arguments(int nodeId, Path dir, List<Ports> ports, String clusterId) {
    return List.of("--node-id", String.valueOf(nodeId), "--dir", dir.toAbsolutePath().toString(),
        "--ports", ports.stream().map(Ports::toString).collect(Collectors.joining(",")), "--cluster-id", clusterId);
  }

  public static void main(String[] args) {
    Map<String, String> options = options(args);
    int nodeId = Integer.parseInt(required(options, "--node-id"));
    Path logDir = Path.of(required(options, "--dir")).toAbsolutePath();
    List<Ports> ports = new ArrayList<>();
    for (String pair : required(options, "--ports").split(",")) {
      ports.add(Ports.parse(pair));
    }
    if (nodeId < 1 || nodeId > ports.size()) {
      throw new IllegalArgumentException("--node-id must be 1.." + ports.size() + " (one per --ports pair)");
    }
    String voters = IntStream.rangeClosed(1, ports.size())
        .mapToObj(id -> id + "@127.0.0.1:" + ports.get(id - 1).controller())
        .collect(Collectors.joining(","));
    Ports own = ports.get(nodeId - 1);
    String bootstrap = "127.0.0.1:" + own.broker();
    Properties config = KafkaNodeConfig.combined(nodeId, voters, ports.size(), logDir, bootstrap,
        "127.0.0.1:" + own.controller());
    if (!Files.exists(logDir.resolve("meta.properties"))) {
      EmbeddedKafka.format(config, required(options, "--cluster-id"));
    }
    KafkaRaftServer server = new KafkaRaftServer(new KafkaConfig(config), Time.SYSTEM);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.shutdown();
      server.awaitShutdown();
    }, "kafka-node-shutdown"));
    server.startup();
    EmbeddedKafka.awaitReady(bootstrap);
    System.out.println(READY + nodeId + " on " + bootstrap);
    server.awaitShutdown();
  }

  private static Map<String, String> options(String[] args) {
    if (args.length % 2 != 0) {
      throw new IllegalArgumentException("options come in pairs: --name value");
    }
    Map<String, String> options = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i += 2) {
      options.put(args[i], args[i + 1]);
    }
    return options;
  }

  private static String required(Map<String, String> options, String name) {
    String value = options.get(name);
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(name + " is required");
    }
    return value;
  }
}
