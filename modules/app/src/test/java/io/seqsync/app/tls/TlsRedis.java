package io.seqsync.app.tls;

import io.seqsync.config.ConfigLoader;
import io.seqsync.config.RedisEndpoint;
import io.seqsync.config.SeqsyncConfig;
import io.seqsync.redis.RedisClients;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.UnifiedJedis;

/**
 * Debian's redis-server on a TLS port only ({@code --port 0}), run as a child process: the default
 * user is off, {@link #USER} (password {@link #PASSWORD}) has the ACL docs/operations.md gives the app.
 */
public final class TlsRedis implements AutoCloseable {
  public static final String USER = "seqsync-app";
  public static final String PASSWORD = "redis-secret";
  private static final Duration READY = Duration.ofSeconds(20);

  private final Process process;
  private final int port;

  private TlsRedis(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  /** Starts it with its files in {@code dir}, its certificate from {@code certificates}; returns once it answers. */
  public static TlsRedis start(Path dir, TestCertificates certificates) {
    int port = TlsKafka.freePort();
    List<String> command = List.of("/usr/bin/redis-server", "--port", "0", "--tls-port", String.valueOf(port),
        "--bind", "127.0.0.1", "--tls-cert-file", certificates.serverCertPem().toString(),
        "--tls-key-file", certificates.serverKeyPem().toString(), "--tls-ca-cert-file", certificates.caPem().toString(),
        "--tls-auth-clients", "no", "--save", "", "--appendonly", "no", "--dir", dir.toString(),
        // One argument per word: redis-server quotes an argument with a space as one. The app's user
        // has the rights docs/operations.md ("Credentials and TLS") gives it, and no more.
        "--user", "default", "off", "--user", USER, "on", ">" + PASSWORD, "resetkeys", "~ss:*", "resetchannels",
        "&seqsync:push", "-@all", "+@read", "+@write", "+@scripting", "+@pubsub", "+@connection", "+info",
        "+cluster|info", "+cluster|nodes");
    Process process;
    try {
      process = new ProcessBuilder(command).redirectErrorStream(true)
          .redirectOutput(dir.resolve("redis.log").toFile()).start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start redis-server", e);
    }
    TlsRedis redis = new TlsRedis(process, port);
    redis.awaitReady(certificates);
    return redis;
  }

  private void awaitReady(TestCertificates certificates) {
    long deadline = System.nanoTime() + READY.toNanos();
    SeqsyncConfig config = ConfigLoader.of(settings(certificates.truststore(), USER, PASSWORD));
    RedisEndpoint endpoint = RedisEndpoint.parse(config.redis().uri().orElseThrow()).trusting(config.redis().truststore());
    while (true) {
      try (UnifiedJedis client = RedisClients.connect(endpoint)) {
        client.ping();
        return;
      } catch (RuntimeException e) {
        if (!process.isAlive() || System.nanoTime() > deadline) {
          close();
          throw new IllegalStateException("redis-server on TLS port " + port + " did not answer", e);
        }
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }

  /** The {@code rediss://} URI of {@code user} with {@code password} at {@code host}. */
  public String uri(String host, String user, String password) {
    return "rediss://" + user + ":" + password + "@" + host + ":" + port;
  }

  /** seqsync's settings for this server as {@code user}, trusting {@code truststore}'s CAs. */
  public Map<String, String> settings(Path truststore, String user, String password) {
    return Map.of("redis.uri", uri("localhost", user, password), "redis.truststore-location", truststore.toString(),
        "redis.truststore-password", TestCertificates.PASSWORD);
  }

  @Override
  public void close() {
    process.destroy();
    try {
      process.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
