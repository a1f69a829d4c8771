package io.seqsync.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.seqsync.config.ConfigLoader;
import io.seqsync.config.SeqsyncConfig;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.RedisClient;

/**
 * The embedded PostgreSQL and Redis of a {@link LocalStack}, killed with SIGKILL, come back on
 * their ports with their data, and the restart is logged; a stopped (SIGSTOP) one is left alone.
 * Kafka is configured as external (never contacted): only the child processes matter here.
 */
class ServerSupervisionTest {
  private static final Duration BACK = Duration.ofSeconds(90);

  @TempDir Path dir;
  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();

  @BeforeEach
  void listen() {
    logged.start();
    ((Logger) LoggerFactory.getLogger(ServerSupervisor.class)).addAppender(logged);
  }

  @AfterEach
  void stopListening() {
    ((Logger) LoggerFactory.getLogger(ServerSupervisor.class)).detachAppender(logged);
  }

  @Test
  void aKilledRedisAndAKilledPostmasterComeBackOnTheirPortsWithTheirData() throws Exception {
    SeqsyncConfig config = ConfigLoader.of(Map.of("data-dir", dir.resolve("data").toString(),
        "kafka.bootstrap-servers", "127.0.0.1:1", "postgres.embedded-port", "0", "redis.embedded-port", "0"));
    try (LocalStack stack = LocalStack.start(config)) {
      URI redisUri = URI.create(stack.redisUri());
      try (RedisClient redis = RedisClient.create(redisUri)) {
        redis.set("kept", "before the kill");
      }
      Thread.sleep(1_500); // appendfsync everysec: a write may reach the append-only file a second later
      Path redisPidFile = dir.resolve("data/redis/redis.pid");
      long redisPid = ServerProcesses.fromPidFile(redisPidFile).orElseThrow().pid();
      signal("KILL", redisPid);

      String kept = await(() -> {
        try (RedisClient redis = RedisClient.create(redisUri)) {
          return redis.get("kept");
        }
      });
      assertThat(kept).isEqualTo("before the kill");
      long restartedRedis = ServerProcesses.fromPidFile(redisPidFile).orElseThrow().pid();
      assertThat(restartedRedis).isNotEqualTo(redisPid);
      assertThat(warnings()).anyMatch(line -> line.startsWith("Redis (pid " + redisPid + ", port " + redisUri.getPort())
          && line.contains(") died; restarting it on the same data directory and port"));
      awaitLogged("Redis restarted in [0-9]+ ms \\(pid " + restartedRedis + ", .*");

      try (Connection connection = connect(stack); Statement statement = connection.createStatement()) {
        statement.execute("create table kept (v text); insert into kept values ('before the kill')");
      }
      Path postmasterPidFile = dir.resolve("data/postgres/data/postmaster.pid");
      long postmaster = ServerProcesses.fromPidFile(postmasterPidFile).orElseThrow().pid();
      signal("KILL", postmaster);

      String row = await(() -> {
        try (Connection connection = connect(stack); Statement statement = connection.createStatement();
            ResultSet rows = statement.executeQuery("select v from kept")) {
          return rows.next() ? rows.getString(1) : null;
        }
      });
      assertThat(row).isEqualTo("before the kill");
      assertThat(warnings()).anyMatch(line -> line.startsWith("PostgreSQL (postmaster pid " + postmaster + ", port ")
          && line.contains(") died; restarting it"));
      // Logged once zonky returns, which may be a moment after the server first answers.
      awaitLogged("PostgreSQL restarted in [0-9]+ ms \\(postmaster pid [0-9]+, .*");
    }
    assertThat(warnings()).as("a clean stop is not a death").filteredOn(line -> line.contains("died")).hasSize(2);
  }

  @Test
  void aStoppedRedisIsStalledNotDeadAndIsLeftAlone() throws Exception {
    SeqsyncConfig config = ConfigLoader.of(Map.of("data-dir", dir.resolve("data").toString(),
        "kafka.bootstrap-servers", "127.0.0.1:1", "postgres.jdbc-url", "jdbc:postgresql://127.0.0.1:1/none",
        "redis.embedded-port", "0"));
    try (LocalStack stack = LocalStack.start(config)) {
      long pid = ServerProcesses.fromPidFile(dir.resolve("data/redis/redis.pid")).orElseThrow().pid();
      signal("STOP", pid);
      try {
        Thread.sleep(4 * ServerSupervisor.INTERVAL.toMillis());
      } finally {
        signal("CONT", pid);
      }
      try (RedisClient redis = RedisClient.create(URI.create(stack.redisUri()))) {
        assertThat(redis.ping()).isEqualTo("PONG");
      }
      assertThat(ServerProcesses.fromPidFile(dir.resolve("data/redis/redis.pid")).orElseThrow().pid()).isEqualTo(pid);
    }
    assertThat(warnings()).isEmpty();
  }

  @Test
  void aStackWhoseJvmEndsLeavesNoServerRunningAndRestartsNothing() throws Exception {
    int postgresPort = FreePorts.pick();
    int redisPort = FreePorts.pick();
    List<String> settings = List.of("data-dir=" + dir.resolve("data"), "kafka.bootstrap-servers=127.0.0.1:1",
        "postgres.embedded-port=" + postgresPort, "redis.embedded-port=" + redisPort);
    try (ChildJvm child = new ChildJvm(LocalStackProcess.class, List.of("-Xmx128m"), settings, Map.of(),
        dir.resolve("child.log"), "local stack up")) {
      child.start(Duration.ofSeconds(90));
      // SIGTERM: the servers' own shutdown hooks stop them, while the supervisor still runs.
      child.stop(Duration.ofSeconds(60));
      assertThat(child.log()).doesNotContain("ServerSupervisor");
    } finally { // a failure above must not leave the two servers running on the machine
      LocalPostgres.stopLeftover(dir.resolve("data/postgres"));
      LocalRedis.stopLeftover(dir.resolve("data/redis"));
    }
    FreePorts.requireFree(postgresPort);
    FreePorts.requireFree(redisPort);
  }

  private void awaitLogged(String pattern) throws InterruptedException {
    assertThat(await(() -> {
      if (warnings().stream().noneMatch(line -> line.matches(pattern))) {
        throw new IllegalStateException("not logged yet: " + pattern);
      }
      return true;
    })).isTrue();
  }

  // The supervisor's messages so far (AppenderBase appends under the appender's lock).
  private List<String> warnings() {
    synchronized (logged) {
      return logged.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    }
  }

  private static Connection connect(LocalStack stack) throws SQLException {
    return DriverManager.getConnection(stack.postgresJdbcUrl(), stack.postgresUser(), stack.postgresPassword());
  }

  // The value once the probe answers without failing; fails after BACK.
  private static <T> T await(Callable<T> probe) throws InterruptedException {
    long deadline = System.nanoTime() + BACK.toNanos();
    Exception last = null;
    while (System.nanoTime() < deadline) {
      try {
        return probe.call();
      } catch (Exception e) {
        last = e;
        Thread.sleep(200);
      }
    }
    throw new AssertionError("not back within " + BACK, last);
  }

  private static void signal(String signal, long pid) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
    assertThat(kill.waitFor()).as("kill -%s %d", signal, pid).isZero();
  }
}
