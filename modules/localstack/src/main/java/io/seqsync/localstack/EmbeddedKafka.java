package io.seqsync.localstack;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real single-node Kafka broker, in this JVM: KRaft in combined mode (broker and controller in
 * one node), bound to 127.0.0.1. Its data directory is formatted once and reused, so topics and
 * records survive a restart.
 */
public final class EmbeddedKafka implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(EmbeddedKafka.class);
  // Written into meta.properties when the directory is formatted: it must never change afterwards.
  private static final int NODE_ID = 1;
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
  // Kafka's log manager writes this file at a clean shutdown and removes it when it starts.
  private static final String CLEAN_SHUTDOWN_FILE = ".kafka_cleanshutdown";
  // After an unclean stop the restarted controller counts the dead broker's session from its own
  // activation and refuses the new broker's registration until that session ends.
  private static final Duration SESSION_AFTER_UNCLEAN_STOP = Duration.ofSeconds(2);
  private static final Duration HEARTBEAT_AFTER_UNCLEAN_STOP = Duration.ofMillis(250);

  private final KafkaRaftServer server;
  private final String bootstrapServers;
  private boolean closed;

  private EmbeddedKafka(KafkaRaftServer server, String bootstrapServers) {
    this.server = server;
    this.bootstrapServers = bootstrapServers;
  }

  /**
   * Starts a broker keeping its data in {@code dir}, listening for clients on {@code port} (0: a
   * free port), and returns once it serves requests.
   */
  public static EmbeddedKafka start(Path dir, int port) {
    Path logDir = dir.toAbsolutePath();
    String bootstrapServers = "127.0.0.1:" + FreePorts.orPick(port);
    Properties config = brokerConfig(logDir, bootstrapServers, "127.0.0.1:" + FreePorts.pick());
    if (!Files.exists(logDir.resolve("meta.properties"))) {
      format(config, Uuid.randomUuid().toString());
    } else if (!Files.exists(logDir.resolve(CLEAN_SHUTDOWN_FILE))) {
      log.info("Kafka in {} was not stopped cleanly: its broker session is {} ms until the next clean start",
          logDir, SESSION_AFTER_UNCLEAN_STOP.toMillis());
      shortenBrokerSession(config);
    }
    KafkaRaftServer server = new KafkaRaftServer(new KafkaConfig(config), Time.SYSTEM);
    EmbeddedKafka kafka = new EmbeddedKafka(server, bootstrapServers);
    try {
      server.startup();
      awaitReady(bootstrapServers);
    } catch (RuntimeException e) {
      kafka.close();
      throw e;
    }
    return kafka;
  }

  /** {@code 127.0.0.1:port}, for the clients' {@code bootstrap.servers}. */
  public String bootstrapServers() {
    return bootstrapServers;
  }

  @Override
  public synchronized void close() {
    if (!closed) {
      closed = true;
      server.shutdown();
      server.awaitShutdown();
    }
  }

  // The controller port is picked anew at each start. A static voter list takes the controller's
  // address from this config every time; a dynamic quorum (format --standalone) would record it in
  // the metadata log and depend on the node re-announcing a changed one.
  private static Properties brokerConfig(Path logDir, String brokerAddress, String controllerAddress) {
    // One node: every replication factor and min ISR is 1, internal topics included.
    return KafkaNodeConfig.combined(NODE_ID, NODE_ID + "@" + controllerAddress, 1, logDir, brokerAddress,
        controllerAddress);
  }

  /**
   * After a kill the metadata log still holds the dead broker's registration, unfenced: the
   * restarted controller refuses the new incarnation (DUPLICATE_BROKER_REGISTRATION) until the old
   * one's session ends, {@code broker.session.timeout.ms} after its activation, 9 s by Kafka's
   * default and the largest wait of a restart (docs/design.md, "Restart"). One node has no network
   * to wait out, so this run gets a short session; the next clean start is back on Kafka's default,
   * which tolerates a loaded machine's stalls (a 4 s session fenced the broker at load 30-40).
   */
  private static void shortenBrokerSession(Properties config) {
    config.put("broker.session.timeout.ms", String.valueOf(SESSION_AFTER_UNCLEAN_STOP.toMillis()));
    config.put("broker.heartbeat.interval.ms", String.valueOf(HEARTBEAT_AFTER_UNCLEAN_STOP.toMillis()));
  }

  // StorageTool.execute, not main: main ends with System.exit.
  /** Formats the log directory of {@code config} for the cluster {@code clusterId} (every node of a cluster shares it). */
  public static void format(Properties config, String clusterId) {
    Path file = null;
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    try {
      file = Files.createTempFile("seqsync-kafka-", ".properties");
      try (OutputStream out = Files.newOutputStream(file)) {
        config.store(out, "seqsync embedded Kafka");
      }
      String[] args = {"format", "--cluster-id", clusterId, "--config", file.toString()};
      int exitCode;
      try (PrintStream printStream = new PrintStream(output, true, StandardCharsets.UTF_8)) {
        exitCode = StorageTool.execute(args, printStream);
      }
      if (exitCode != 0) {
        throw new IllegalStateException("kafka-storage format failed (" + exitCode + "): " + output.toString(StandardCharsets.UTF_8));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot format Kafka storage in " + config.getProperty("log.dirs"), e);
    } catch (RuntimeException e) { // TerseFailure and FormatterException report bad settings
      throw new IllegalStateException("kafka-storage format failed: " + e.getMessage() + " " + output.toString(StandardCharsets.UTF_8), e);
    } finally {
      deleteQuietly(file);
    }
  }

  // startup() returns once the broker is unfenced; a client round trip proves it serves requests.
  static void awaitReady(String bootstrapServers) {
    try (Admin admin = Admin.create(Map.of(
        AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
        AdminClientConfig.CLIENT_ID_CONFIG, "seqsync-embedded-kafka-probe"))) {
      int timeoutMs = (int) READY_TIMEOUT.toMillis();
      if (admin.describeCluster(new DescribeClusterOptions().timeoutMs(timeoutMs)).nodes().get().isEmpty()) {
        throw new IllegalStateException("Kafka at " + bootstrapServers + " reports no broker");
      }
    } catch (ExecutionException e) {
      throw new IllegalStateException("Kafka at " + bootstrapServers + " did not become ready", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for Kafka", e);
    }
  }

  private static void deleteQuietly(Path file) {
    if (file != null) {
      try {
        Files.deleteIfExists(file);
      } catch (IOException ignored) {
        // a leftover file in the temp directory is harmless
      }
    }
  }
}
