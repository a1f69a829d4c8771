package io.seqsync.app;

import ch.qos.logback.classic.Level;
import io.seqsync.analytics.AnalyticsCommand;
import io.seqsync.config.ConfigException;
import io.seqsync.config.ConfigLoader;
import io.seqsync.config.Redaction;
import io.seqsync.config.SeqsyncConfig;
import io.seqsync.ingress.auth.TokenCommand;
import io.seqsync.ingress.auth.Tokens;
import io.seqsync.projector.replay.MoveCommand;
import io.seqsync.projector.replay.ReplayCommand;
import java.time.Instant;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code seqsync} starts the backend; {@code seqsync token --user ID --device ID [--ttl 30d]}
 * prints a token signed with the configured secret ({@code token --ops}: an operator's); {@code seqsync replay}, with the backend
 * stopped, rebuilds PostgreSQL and Redis from the topics ({@link ReplayCommand}); {@code seqsync
 * analytics [--since ..] [--period day|hour]}, next to the running backend, reports its traffic from
 * the event log ({@link AnalyticsCommand}); {@code seqsync move-partitions copy|prune FIRST-LAST JDBC_URL}
 * moves partitions to a new shard ({@link MoveCommand}); {@code seqsync erase --user ID} and {@code seqsync keys
 * rewrap|rotate} erase a user and rotate the master key ({@link ErasureCommand}).
 */
public final class SeqsyncMain {
  private static final Logger log = LoggerFactory.getLogger(SeqsyncMain.class);

  private SeqsyncMain() {}

  public static void main(String[] args) throws InterruptedException {
    SeqsyncConfig config;
    try {
      config = ConfigLoader.fromEnvironment();
    } catch (ConfigException e) {
      System.err.println("configuration error: " + e.getMessage());
      System.exit(2);
      return;
    }
    if (args.length > 0 && args[0].equals("token")) {
      System.exit(TokenCommand.run(Arrays.copyOfRange(args, 1, args.length),
          config.auth().secret().orElse(Tokens.DEV_SECRET), config.auth().demoTokenTtl(), System.out, System.err));
    }
    if (args.length > 0 && args[0].equals("analytics")) {
      // The report is all there is on stdout, and a broker that does not answer is said once, by the command.
      ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger("org.apache.kafka")).setLevel(Level.OFF);
      System.exit(AnalyticsCommand.run(Arrays.copyOfRange(args, 1, args.length), config, Instant.now(), System.out,
          System.err));
    }
    if (args.length > 0 && args[0].equals("move-partitions")) {
      System.exit(MoveCommand.run(Arrays.copyOfRange(args, 1, args.length), config, System.out, System.err));
    }
    if (args.length > 0 && (args[0].equals("erase") || args[0].equals("keys"))) {
      System.exit(ErasureCommand.run(args[0], Arrays.copyOfRange(args, 1, args.length), config, System.out, System.err));
    }
    if (args.length > 0 && args[0].equals("replay")) {
      System.exit(ReplayCommand.run(config, System.out, System.err));
    }
    serve(config);
  }

  private static void serve(SeqsyncConfig config) throws InterruptedException {
    log.info("seqsync starting, data in {}", config.dataDir());
    SeqsyncApp app;
    try {
      app = SeqsyncApp.start(config);
    } catch (ConfigException e) {
      log.error("configuration error: {}", e.getMessage());
      System.exit(2);
      return;
    } catch (RuntimeException e) {
      // The start stopped what it had started, but the embedded broker's threads would keep a JVM
      // up that serves nothing: end it, so that whatever supervises the process starts it again.
      log.error("seqsync could not start", e);
      System.exit(1);
      return;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      log.info("seqsync stopping");
      app.close();
      stopped.countDown();
    }, "seqsync-shutdown"));
    log.info("seqsync is up: HTTP http://{}:{}, Kafka {}, PostgreSQL {}, Redis {}", config.http().host(), app.httpPort(),
        app.stack().kafkaBootstrapServers(), Redaction.withoutSecrets(app.stack().postgresJdbcUrl()),
        Redaction.withoutSecrets(app.stack().redisUri()));
    if (config.auth().developmentSecret()) {
      log.info("development secret: the development sign-in and demo tokens are on, and HTTP listens on {}{}",
          config.http().host(), config.http().loopback() ? " only (set http.host to listen elsewhere)" : "");
    }
    log.info("web chat client: http://localhost:{}/{}", app.httpPort(),
        config.auth().developmentSecret() ? " (development sign-in: any user id and device name)" : "");
    if (config.auth().developmentSecret()) {
      log.info("demo tokens (development secret, valid {}):\n  user 1, device phone:  {}\n  user 2, device laptop: {}"
              + "\n  operator (the ops dashboard, http://localhost:{}/ops/): {}",
          config.auth().demoTokenTtl(), app.tokens().mint(1, "phone", config.auth().demoTokenTtl()),
          app.tokens().mint(2, "laptop", config.auth().demoTokenTtl()), app.httpPort(),
          app.tokens().mintOperator(config.auth().demoTokenTtl()));
    }
    stopped.await();
  }
}
