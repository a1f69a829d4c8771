package io.seqsync.bench.peer;

import io.seqsync.bench.Bench;
import io.seqsync.bench.Result;
import java.nio.file.Path;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * seqsync next to ejabberd, on the same machine in the same run, driven the same way (scripts/bench-peer):
 * live delivery at offered rates ({@link LiveMeasurement}), catch-up of an offline receiver
 * ({@link CatchUpMeasurement}), kill -9 mid-stream ({@link CrashMeasurement}); the servers take
 * turns going first. Markdown tables on stdout, progress on stderr. See docs/benchmarks.md, "seqsync
 * against ejabberd".
 */
@Command(name = "bench-peer", mixinStandardHelpOptions = true)
public final class PeerBenchmark extends Bench {
  // Held: java.util.logging keeps loggers weakly, and Smack logs every dropped stream as a warning.
  private static final Logger SMACK_LOG = Logger.getLogger("org.jivesoftware");

  @Option(names = "--rates", split = ",", description = "live: offered rates (default: ${DEFAULT-VALUE})")
  List<Integer> rates = List.of(200, 500, 1000, 2000, 3000, 5000);
  @Option(names = "--warmup-s", description = "default: ${DEFAULT-VALUE}") int warmupSeconds = 5;
  @Option(names = "--duration-s", description = "default: ${DEFAULT-VALUE}") int durationSeconds = 20;
  @Option(names = "--conversations", description = "default: ${DEFAULT-VALUE}") int conversations = 1_000;
  @Option(names = "--catchup-messages", description = "sent while the receiver is offline (default: ${DEFAULT-VALUE})")
  int catchupMessages = 100_000;
  @Option(names = "--fill-rate", description = "default: ${DEFAULT-VALUE}") int fillRate = 2_000;
  @Option(names = "--fetchers", description = "seqsync's pages in parallel (default: ${DEFAULT-VALUE})") int fetchers = 8;
  @Option(names = "--crash-rate", description = "default: ${DEFAULT-VALUE}") int crashRate = 1_000;
  @Option(names = "--crash-s", description = "default: ${DEFAULT-VALUE}") int crashSeconds = 40;
  @Option(names = "--kill-after-s", description = "default: ${DEFAULT-VALUE}") int killAfterSeconds = 10;
  @Option(names = "--measurements", split = ",", description = "default: ${DEFAULT-VALUE}")
  Set<String> measurements = Set.of("live", "catchup", "crash");
  @Option(names = "--servers", split = ",", description = "default: ${DEFAULT-VALUE}")
  List<String> servers = List.of("seqsync", "ejabberd");
  @Option(names = "--dir", required = true) Path dir;
  @Option(names = "--app-jar", required = true) Path appJar;
  @Option(names = "--ejabberdctl", required = true) Path ejabberdctl;
  @Option(names = "--seqsync-ports", split = ",", description = "HTTP, Kafka, Redis (default: ${DEFAULT-VALUE})")
  List<Integer> seqsyncPorts = List.of(18310, 19310, 16510);
  @Option(names = "--xmpp-port", description = "default: ${DEFAULT-VALUE}") int xmppPort = 15_222;
  @Option(names = "--ejabberd-db", description = "default: ${DEFAULT-VALUE}") String ejabberdDatabase = "ejabberd_bench";
  @Option(names = "--seqsync-db", description = "default: ${DEFAULT-VALUE}") String seqsyncDatabase = "seqsync_bench";

  public static void main(String[] args) {
    Bench.main(new PeerBenchmark(), args);
  }

  @Override
  protected boolean measure() throws Exception {
    PeerOptions options = new PeerOptions(rates, warmupSeconds, durationSeconds, conversations, catchupMessages, fillRate,
        fetchers, crashRate, crashSeconds, killAfterSeconds, measurements, servers, dir, appJar,
        new PeerOptions.Ports(seqsyncPorts.get(0), seqsyncPorts.get(1), seqsyncPorts.get(2)), ejabberdctl, xmppPort,
        ejabberdDatabase, seqsyncDatabase);
    SMACK_LOG.setLevel(Level.parse(System.getProperty("bench.smack-log", "SEVERE")));
    Files.createDirectories(options.dir());
    try (SeqsyncPeer seqsync = new SeqsyncPeer(options); EjabberdPeer ejabberd = new EjabberdPeer(options)) {
      System.err.println("== starting seqsync (app jar) and ejabberd");
      List<Peer> seqsyncFirst = new ArrayList<>();
      for (Peer peer : List.of(seqsync, ejabberd)) {
        if (servers.contains(peer.name())) {
          peer.start();
          seqsyncFirst.add(peer);
        }
      }
      rows.add(Result.row("postgres", settings(seqsync.jdbcUrl())));
      List<Peer> ejabberdFirst = new ArrayList<>(seqsyncFirst);
      java.util.Collections.reverse(ejabberdFirst);
      System.err.println("== warm-up");
      LiveMeasurement.warmUp(options, seqsyncFirst);
      if (measurements.contains("live")) {
        System.err.println("== live");
        LiveMeasurement.run(options, seqsyncFirst).forEach(row -> rows.add(Result.row("measurement", "live", "row", row)));
      }
      if (measurements.contains("catchup")) {
        System.err.println("== catch-up");
        CatchUpMeasurement.run(options, ejabberdFirst).forEach(row -> rows.add(Result.row("measurement", "catchup", "row", row)));
      }
      if (measurements.contains("crash")) {
        System.err.println("== crash");
        CrashMeasurement.run(options, seqsyncFirst).forEach(row -> rows.add(Result.row("measurement", "crash", "row", row)));
      }
      for (Peer peer : seqsyncFirst) {
        rows.add(Result.row("server", peer.name(), "stored", peer.storageCounts()));
      }
      rows.add(Result.row("arrivalsNamingNoMessageOfTheRun", Deliveries.foreign()));
      System.err.println("== stopping both servers");
    }
    return true;
  }

  /** The durability settings of a PostgreSQL server, and its version. */
  private static String settings(String jdbcUrl) throws SQLException {
    List<String> values = new ArrayList<>();
    try (Connection connection = DriverManager.getConnection(jdbcUrl, "postgres", "");
        Statement statement = connection.createStatement()) {
      for (String setting : List.of("server_version", "fsync", "synchronous_commit", "wal_sync_method", "shared_buffers")) {
        try (ResultSet rows = statement.executeQuery("show " + setting)) {
          rows.next();
          values.add(setting + "=" + rows.getString(1));
        }
      }
    }
    return String.join(", ", values);
  }
}
