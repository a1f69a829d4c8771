package io.seqsync.app.tls;

import io.seqsync.config.KeyStoreFile;
import io.seqsync.config.RedisEndpoint;
import io.seqsync.redis.RedisClients;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

/**
 * Debian's redis-server on TLS ports only ({@code --port 0}), run as child processes: one server, or
 * a Redis Cluster of masters whose bus speaks TLS too. The default user is off; {@link #USER}
 * (password {@link #PASSWORD}) has the ACL docs/operations.md gives the app, and an admin user forms
 * the cluster.
 */
public final class TlsRedis implements AutoCloseable {
  public static final String USER = "seqsync-app";
  public static final String PASSWORD = "redis-secret";
  private static final String ADMIN = "admin";
  private static final int SLOTS = 16_384;
  private static final Duration READY = Duration.ofSeconds(30);

  private final List<Process> processes = new ArrayList<>();
  private final List<Integer> ports = new ArrayList<>();
  private final boolean cluster;

  private TlsRedis(boolean cluster) {
    this.cluster = cluster;
  }

  /** One server with its files in {@code dir}, its certificate from {@code certificates}; returns once it answers. */
  public static TlsRedis start(Path dir, TestCertificates certificates) {
    return start(dir, certificates, 1, false);
  }

  /** A cluster of {@code masters} masters; returns once every node says the cluster is ok. */
  public static TlsRedis startCluster(Path dir, TestCertificates certificates, int masters) {
    return start(dir, certificates, masters, true);
  }

  private static TlsRedis start(Path dir, TestCertificates certificates, int nodes, boolean cluster) {
    TlsRedis redis = new TlsRedis(cluster);
    try {
      for (int i = 0; i < nodes; i++) {
        redis.launch(Files.createDirectories(dir.resolve("node-" + i)), certificates);
      }
      redis.awaitAnswers(certificates);
      if (cluster) {
        redis.form(certificates);
      }
    } catch (IOException | RuntimeException e) {
      redis.close();
      throw new IllegalStateException("cannot start redis-server with TLS in " + dir, e);
    }
    return redis;
  }

  private void launch(Path dir, TestCertificates certificates) throws IOException {
    int port = TlsKafka.freePort();
    List<String> command = new ArrayList<>(List.of("/usr/bin/redis-server", "--port", "0",
        "--tls-port", String.valueOf(port), "--bind", "127.0.0.1", "--tls-cert-file", certificates.serverCertPem().toString(),
        "--tls-key-file", certificates.serverKeyPem().toString(), "--tls-ca-cert-file", certificates.caPem().toString(),
        "--tls-auth-clients", "no", "--save", "", "--appendonly", "no", "--dir", dir.toString(),
        // One argument per word: redis-server quotes an argument with a space as one. The app's user
        // has the rights docs/operations.md ("Credentials and TLS") gives it, and no more.
        "--user", "default", "off", "--user", ADMIN, "on", ">" + ADMIN, "~*", "&*", "+@all",
        "--user", USER, "on", ">" + PASSWORD, "resetkeys", "~ss:*", "resetchannels", "&seqsync:push:*", "-@all",
        "+@read", "+@write", "+@scripting", "+@pubsub", "+@connection", "+info", "+cluster|info", "+cluster|nodes",
        "+cluster|slots", "+cluster|shards"));
    if (cluster) {
      command.addAll(List.of("--cluster-enabled", "yes", "--tls-cluster", "yes", "--cluster-node-timeout", "3000",
          "--cluster-config-file", dir.resolve("nodes.conf").toString()));
    }
    processes.add(new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(dir.resolve("redis.log").toFile()).start());
    ports.add(port);
  }

  private void awaitAnswers(TestCertificates certificates) {
    for (int port : ports) {
      awaitUntil(() -> {
        try (Jedis node = admin(port, certificates)) {
          return node.ping().equals("PONG");
        }
      }, "redis-server on TLS port " + port);
    }
  }

  // Slots to each master, every master met through the first, then cluster_state:ok everywhere.
  private void form(TestCertificates certificates) {
    for (int i = 0; i < ports.size(); i++) {
      try (Jedis node = admin(ports.get(i), certificates)) {
        node.clusterAddSlots(IntStream.range(i * SLOTS / ports.size(), (i + 1) * SLOTS / ports.size()).toArray());
      }
    }
    try (Jedis first = admin(ports.get(0), certificates)) {
      ports.subList(1, ports.size()).forEach(port -> first.clusterMeet("127.0.0.1", port));
    }
    for (int port : ports) {
      awaitUntil(() -> {
        try (Jedis node = admin(port, certificates)) {
          return node.clusterInfo().contains("cluster_state:ok");
        }
      }, "cluster_state:ok on port " + port);
    }
  }

  private static Jedis admin(int port, TestCertificates certificates) {
    RedisEndpoint endpoint = RedisEndpoint.parse("rediss://" + ADMIN + ":" + ADMIN + "@localhost:" + port)
        .trusting(Optional.of(new KeyStoreFile(certificates.truststore(), TestCertificates.PASSWORD, "PKCS12")));
    return new Jedis(new HostAndPort("localhost", port), RedisClients.clientConfig(endpoint).build());
  }

  private void awaitUntil(java.util.function.BooleanSupplier done, String what) {
    long deadline = System.nanoTime() + READY.toNanos();
    RuntimeException last = null;
    while (System.nanoTime() < deadline && processes.stream().allMatch(Process::isAlive)) {
      try {
        if (done.getAsBoolean()) {
          return;
        }
      } catch (RuntimeException notYet) {
        last = notYet;
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    throw new IllegalStateException("waited " + READY.toSeconds() + " s for " + what, last);
  }

  /** The {@code rediss://} URI of {@code user} with {@code password}, naming every node at {@code host}. */
  public String uri(String host, String user, String password) {
    return "rediss://" + user + ":" + password + "@"
        + ports.stream().map(port -> host + ":" + port).collect(Collectors.joining(","));
  }

  /** seqsync's settings for this server as {@code user}, trusting {@code truststore}'s CAs. */
  public Map<String, String> settings(Path truststore, String user, String password) {
    // A cluster's nodes announce themselves by IP: the certificate names 127.0.0.1 too.
    return Map.of("redis.uri", uri(cluster ? "127.0.0.1" : "localhost", user, password),
        "redis.truststore-location", truststore.toString(), "redis.truststore-password", TestCertificates.PASSWORD);
  }

  @Override
  public void close() {
    processes.forEach(Process::destroy);
    for (Process process : processes) {
      try {
        process.waitFor();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
