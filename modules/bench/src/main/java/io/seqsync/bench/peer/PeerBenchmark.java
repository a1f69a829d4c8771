package io.seqsync.bench.peer;

import io.seqsync.bench.BenchSupport;
import io.seqsync.bench.CliOptions;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * seqsync next to ejabberd, on the same machine in the same run, driven the same way (scripts/bench-peer):
 * live delivery at offered rates ({@link LiveMeasurement}), catch-up of an offline receiver
 * ({@link CatchUpMeasurement}), kill -9 mid-stream ({@link CrashMeasurement}); the servers take
 * turns going first. Markdown tables on stdout, progress on stderr. See docs/benchmarks.md, "seqsync
 * against ejabberd".
 */
public final class PeerBenchmark {
  // Held: java.util.logging keeps loggers weakly, and Smack logs every dropped stream as a warning.
  private static final Logger SMACK_LOG = Logger.getLogger("org.jivesoftware");

  private PeerBenchmark() {}

  public static void main(String[] args) throws Exception {
    PeerOptions options = CliOptions.parseOrExit(args, PeerOptions::parse, PeerOptions.USAGE);
    BenchSupport.quietLogs();
    SMACK_LOG.setLevel(Level.parse(System.getProperty("bench.smack-log", "SEVERE")));
    Files.createDirectories(options.dir());
    Map<String, String> facts = new LinkedHashMap<>();
    facts.put("started", Instant.now().toString());
    facts.put("load average before", BenchSupport.loadAverage());
    long began = System.nanoTime();
    List<LiveMeasurement.Row> live = List.of();
    List<CatchUpMeasurement.Row> catchUp = List.of();
    List<CrashMeasurement.Row> crash = List.of();
    try (SeqsyncPeer seqsync = new SeqsyncPeer(options); EjabberdPeer ejabberd = new EjabberdPeer(options)) {
      System.err.println("== starting seqsync (app jar) and ejabberd");
      if (options.servers().contains("seqsync")) {
        seqsync.start();
      }
      if (options.servers().contains("ejabberd")) {
        ejabberd.start();
      }
      facts.put("PostgreSQL (both)", settings(seqsync.jdbcUrl()));
      List<Peer> seqsyncFirst = new ArrayList<>();
      for (Peer peer : List.of(seqsync, ejabberd)) {
        if (options.servers().contains(peer.name())) {
          seqsyncFirst.add(peer);
        }
      }
      List<Peer> ejabberdFirst = new ArrayList<>(seqsyncFirst);
      java.util.Collections.reverse(ejabberdFirst);
      System.err.println("== warm-up");
      LiveMeasurement.warmUp(options, seqsyncFirst);
      if (options.measurements().contains("live")) {
        System.err.println("== live");
        live = LiveMeasurement.run(options, seqsyncFirst);
      }
      if (options.measurements().contains("catchup")) {
        System.err.println("== catch-up");
        catchUp = CatchUpMeasurement.run(options, ejabberdFirst);
      }
      if (options.measurements().contains("crash")) {
        System.err.println("== crash");
        crash = CrashMeasurement.run(options, seqsyncFirst);
      }
      for (Peer peer : seqsyncFirst) {
        facts.put(peer.name() + " stored", peer.storageCounts());
      }
      facts.put("load average after", BenchSupport.loadAverage());
      facts.put("took", String.format("%.0f s", (System.nanoTime() - began) / 1e9));
      facts.put("arrivals naming no message of the run", Integer.toString(Deliveries.foreign()));
      System.err.println("== stopping both servers");
    }
    StringBuilder out = new StringBuilder("## seqsync against ejabberd (scripts/bench-peer)\n\n");
    out.append(PeerReport.facts(facts)).append('\n');
    if (!live.isEmpty()) {
      out.append(PeerReport.live(live)).append('\n');
    }
    if (!catchUp.isEmpty()) {
      out.append(PeerReport.catchUp(catchUp)).append('\n');
    }
    if (!crash.isEmpty()) {
      out.append(PeerReport.crash(crash)).append('\n');
    }
    System.out.print(out);
    System.exit(0);
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
