package io.seqsync.bench.chaos;

import io.seqsync.bench.CliOptions;
import io.seqsync.config.ConfigLoader;
import io.seqsync.events.Topics;
import io.seqsync.ingress.auth.Tokens;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Faults under load (issue 33), run by {@code scripts/chaos} against the cluster of
 * {@code scripts/run-cluster}: a client sends at a steady rate with retries by clientMsgId
 * ({@link SteadySender}), a receiver records the pushes of the busy conversation
 * ({@link PushWatch}), each fault is done once and then all of them in a row ({@link Faults}), and
 * afterwards an independent checker reads the event log {@code read_committed} and PostgreSQL
 * ({@link ChaosCheck}). Prints a markdown table: per fault, sends acknowledged, lost, duplicated,
 * seq gaps, how long sends failed and how long push paused.
 */
public final class ChaosRun {
  private static final String USAGE = """
      usage: ChaosRun --apps=URL,URL --bootstrap=HOST:PORT,... --jdbc-url=URL [--jdbc-user=postgres]
                      [--jdbc-password=] --secret-file=PATH --cluster=scripts/run-cluster [--partitions=6]
                      [--rate=100] [--conversations=50] [--settle-s=20] [--down-s=15] [--recover-s=30]
                      [--faults=broker,leader,app,redis,postgres] [--in-a-row=true] [--redis=HOST:PORT]
                      [--drain-s=600]""";
  private static final long START = System.nanoTime();

  /** A fault's time span in ms since the run began: from its start to the next one's. */
  record Window(String name, long from, long to) {}

  private ChaosRun() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> options = CliOptions.parseOrExit(args, given -> CliOptions.parse(given, Set.of("apps", "bootstrap",
        "jdbc-url", "jdbc-user", "jdbc-password", "secret-file", "cluster", "partitions", "rate", "conversations",
        "settle-s", "down-s", "recover-s", "faults", "in-a-row", "redis", "drain-s")), USAGE);
    List<String> apps = Arrays.asList(options.get("apps").split(","));
    String bootstrap = options.get("bootstrap");
    int partitions = Integer.parseInt(options.getOrDefault("partitions", "6"));
    int rate = Integer.parseInt(options.getOrDefault("rate", "100"));
    int conversations = Integer.parseInt(options.getOrDefault("conversations", "50"));
    long settle = TimeUnit.SECONDS.toMillis(Long.parseLong(options.getOrDefault("settle-s", "20")));
    long recover = TimeUnit.SECONDS.toMillis(Long.parseLong(options.getOrDefault("recover-s", "30")));
    List<Faults.Fault> chosen = Faults.ALL.stream()
        .filter(fault -> Arrays.asList(options.getOrDefault("faults", "broker,leader,app,redis,postgres").split(","))
            .contains(fault.name())).toList();
    Topics topics = Topics.from(ConfigLoader.of(Map.of("kafka.partitions", String.valueOf(partitions))).kafka());
    Faults faults = new Faults(Path.of(options.get("cluster")).toAbsolutePath(), bootstrap, topics.commands().name(),
        partitions, Integer.parseInt(options.getOrDefault("down-s", "15")));
    Tokens tokens = new Tokens(Files.readString(Path.of(options.get("secret-file"))).trim());

    Instant began = Instant.now();
    List<Window> windows = new ArrayList<>();
    try (SteadySender sender = new SteadySender(apps, Map.of(1L, tokens.mint(1, "chaos", Duration.ofHours(6))),
            conversations, START);
        PushWatch push = PushWatch.connect(apps, tokens.mint(2, "watch", Duration.ofHours(6)), ChaosRun::now, 1)) {
      sender.begin(rate);
      log("sending " + rate + "/s to " + conversations + " conversations through " + apps);
      // The steady spell before the first fault also measures what a message costs Redis.
      Thread.sleep(Math.min(settle, 5_000));
      long steadyFrom = now();
      RedisCost redisBefore = options.containsKey("redis") ? RedisCost.read(options.get("redis")) : null;
      Thread.sleep(Math.max(0, settle - 5_000));
      String redisCost = redisBefore == null ? "" : RedisCost.read(options.get("redis")).perMessage(redisBefore,
          sender.sends().values().stream().filter(send -> send.stored >= steadyFrom).count(),
          (now() - steadyFrom) / 1000.0);
      for (Faults.Fault fault : chosen) {
        long from = now();
        log("fault " + fault.name() + ": " + fault.description());
        faults.run(fault);
        Thread.sleep(recover);
        windows.add(new Window(fault.name(), from, now()));
      }
      if (Boolean.parseBoolean(options.getOrDefault("in-a-row", "true"))) {
        long from = now();
        for (Faults.Fault fault : chosen) {
          log("in a row, fault " + fault.name() + ": " + fault.description());
          faults.run(fault);
        }
        Thread.sleep(recover);
        windows.add(new Window("all in a row", from, now()));
      }
      sender.stopNew();
      // Every acknowledged send is durably in Kafka: the checker waits until each has its 200 (the
      // sequencer and the projector caught up with what the faults held back), or until --drain-s.
      long deadline = now() + TimeUnit.SECONDS.toMillis(Long.parseLong(options.getOrDefault("drain-s", "600")));
      while (sender.unsettled() > 0 && now() < deadline) {
        Thread.sleep(500);
      }
      log("sending stopped; " + sender.unsettled() + " sends never answered 200");
      Thread.sleep(2_000); // the last pushes
      List<String> convs = java.util.stream.IntStream.range(0, conversations).mapToObj(SteadySender::conversation).toList();
      ChaosCheck.Holding eventLog = ChaosCheck.eventLog(bootstrap, topics);
      ChaosCheck.Holding postgres = ChaosCheck.postgres(options.get("jdbc-url"), options.getOrDefault("jdbc-user", "postgres"),
          options.getOrDefault("jdbc-password", ""), convs);
      System.out.println(ChaosReport.render(began, rate, sender.sends(), push.pushes(), windows, eventLog, postgres));
      System.out.println(redisCost);
    }
    System.exit(0);
  }

  static long now() {
    return (System.nanoTime() - START) / 1_000_000;
  }

  static void log(String line) {
    System.err.printf("%s [%6.1f s] %s%n", Instant.now(), now() / 1000.0, line);
  }
}
