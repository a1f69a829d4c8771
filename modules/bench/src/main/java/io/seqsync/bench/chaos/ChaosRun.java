package io.seqsync.bench.chaos;

import io.seqsync.bench.Bench;
import io.seqsync.bench.Result;
import io.seqsync.config.ConfigLoader;
import io.seqsync.events.Topics;
import io.seqsync.ingress.auth.Tokens;
import io.seqsync.testkit.ApiClient;
import io.seqsync.testkit.Outbox;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Faults under load, run by {@code scripts/chaos} against the cluster of {@code scripts/run-cluster}:
 * a client sends at a steady rate with retries by clientMsgId ({@link SteadySender}), a receiver
 * records the pushes of the busy conversation ({@link PushWatch}), each fault is done once and then
 * all of them in a row ({@link Faults}), and afterwards an independent checker reads the event log
 * {@code read_committed} and PostgreSQL ({@link ChaosCheck}). One row per fault window: sends
 * acknowledged, lost, duplicated, seq gaps, how long sends failed and how long push paused.
 */
@Command(name = "chaos", mixinStandardHelpOptions = true)
public final class ChaosRun extends Bench {
  private static final long START = System.nanoTime();

  @Option(names = "--apps", split = ",", required = true) List<String> apps;
  @Option(names = "--bootstrap", required = true) String bootstrap;
  @Option(names = "--jdbc-url", split = ",", required = true, description = "every shard's primary (user postgres)") List<String> jdbcUrls;
  @Option(names = "--secret-file", required = true) Path secretFile;
  @Option(names = "--cluster", required = true) Path cluster;
  @Option(names = "--redis", description = "Redis nodes, for its cost per message") String redis;
  @Option(names = "--partitions", description = "default: ${DEFAULT-VALUE}") int partitions = 6;
  @Option(names = "--rate", description = "sends/s (default: ${DEFAULT-VALUE})") int rate = 100;
  @Option(names = "--conversations", description = "default: ${DEFAULT-VALUE}") int conversations = 50;
  @Option(names = "--settle-s", description = "default: ${DEFAULT-VALUE}") long settleSeconds = 20;
  @Option(names = "--down-s", description = "default: ${DEFAULT-VALUE}") int downSeconds = 15;
  @Option(names = "--recover-s", description = "default: ${DEFAULT-VALUE}") long recoverSeconds = 30;
  @Option(names = "--faults", split = ",", description = "default: ${DEFAULT-VALUE}")
  List<String> faultNames = List.of("broker", "leader", "app", "redis", "postgres");
  @Option(names = "--in-a-row", arity = "1", description = "default: ${DEFAULT-VALUE}") boolean inARow = true;
  @Option(names = "--drain-s", description = "default: ${DEFAULT-VALUE}") long drainSeconds = 600;

  /** A fault's time span in ms since the run began: from its start, until it was undone, to the next one's start. */
  record Window(String name, long from, long undone, long to) {}

  public static void main(String[] args) {
    Bench.main(new ChaosRun(), args);
  }

  @Override
  protected boolean measure() throws Exception {
    Topics topics = Topics.from(ConfigLoader.of(Map.of("kafka.partitions", String.valueOf(partitions))).kafka());
    Faults faults = new Faults(cluster.toAbsolutePath(), bootstrap, topics.commands().name(), partitions, downSeconds);
    Tokens tokens = new Tokens(Files.readString(secretFile).trim());
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    String sender = tokens.mint(1, "chaos", Duration.ofHours(6));
    List<ApiClient> clients = apps.stream().map(app -> new ApiClient(http, app, sender, Duration.ofSeconds(15))).toList();
    List<Window> windows = new ArrayList<>();
    try (SteadySender sending = new SteadySender(clients, conversations);
        PushWatch push = new PushWatch(apps.stream().map(app -> URI.create(app).getPort()).toList(),
            tokens.mint(2, "watch", Duration.ofHours(6)))) {
      sending.begin(rate);
      PageWatch pages = new PageWatch(clients, sending);
      log("sending " + rate + "/s to " + conversations + " conversations through " + apps);
      // The steady spell before the first fault also measures what a message costs Redis.
      Thread.sleep(Math.min(settleSeconds * 1000, 5_000));
      long steadyFrom = now();
      RedisCost redisBefore = redis == null ? null : RedisCost.read(redis);
      Thread.sleep(Math.max(0, settleSeconds * 1000 - 5_000));
      if (redisBefore != null) {
        rows.add(RedisCost.read(redis).perMessage(redisBefore, sending.sends().values().stream()
            .filter(send -> send.done() != null && ms(send.done().stored()) >= steadyFrom).count(),
            (now() - steadyFrom) / 1000.0));
      }
      List<Faults.Fault> chosen = Faults.ALL.stream().filter(fault -> faultNames.contains(fault.name())).toList();
      for (Faults.Fault fault : chosen) {
        long from = now();
        log("fault " + fault.name() + ": " + fault.description());
        faults.run(fault);
        long undone = now();
        Thread.sleep(recoverSeconds * 1000);
        windows.add(new Window(fault.name(), from, undone, now()));
      }
      if (inARow && !chosen.isEmpty()) {
        long from = now();
        for (Faults.Fault fault : chosen) {
          log("in a row, fault " + fault.name() + ": " + fault.description());
          faults.run(fault);
        }
        long undone = now();
        Thread.sleep(recoverSeconds * 1000);
        windows.add(new Window("all in a row", from, undone, now()));
      }
      sending.stopNew();
      // Every acknowledged send is durably in Kafka: wait until each has its 200, or --drain-s.
      for (long deadline = now() + TimeUnit.SECONDS.toMillis(drainSeconds); sending.unsettled() > 0 && now() < deadline; ) {
        Thread.sleep(500);
      }
      log("sending stopped; " + sending.unsettled() + " sends never answered 200");
      Thread.sleep(2_000); // the last pushes
      List<String> convs = IntStream.range(0, conversations).mapToObj(SteadySender::conversation).toList();
      boolean held = report(sending.sends().values(), push.pushes().stream().map(ChaosRun::ms).toList(), windows,
          ChaosCheck.eventLog(bootstrap, topics), ChaosCheck.postgres(jdbcUrls, convs));
      return addClientView(windows, List.copyOf(sending.answers), List.copyOf(pages.reads)) && held;
    }
  }

  /** A row per window and one for the whole run; whether nothing was lost, duplicated or left a gap. */
  private boolean report(Collection<SteadySender.Send> sends, List<Long> pushes, List<Window> windows,
      ChaosCheck.Holding eventLog, ChaosCheck.Holding postgres) {
    Map<String, Long> logSeqs = eventLog.seqs();
    // A missing seq is put down to the send numbered just before it.
    Map<String, Long> triedBySeq = new HashMap<>();
    sends.forEach(send -> {
      Long seq = logSeqs.get(send.clientMsgId());
      if (seq != null) {
        triedBySeq.put(send.conv() + "#" + seq, ms(send.firstTried()));
      }
    });
    List<String> gaps = new ArrayList<>(eventLog.gaps());
    postgres.gaps().stream().filter(gap -> !gaps.contains(gap)).forEach(gaps::add);
    for (Window window : windows) {
      long windowGaps = gaps.stream().filter(gap -> {
        String[] parts = gap.split("#");
        Long before = triedBySeq.get(parts[0] + "#" + (Long.parseLong(parts[1]) - 1));
        return before != null && before >= window.from() && before < window.to();
      }).count();
      rows.add(row(window.name(), sends.stream().filter(send -> ms(send.firstTried()) >= window.from()
          && ms(send.firstTried()) < window.to()).toList(), eventLog, postgres, windowGaps, window.from(),
          pushGap(pushes, window)));
    }
    Map<String, Object> whole = row("whole run", sends, eventLog, postgres, gaps.size(), 0, -1);
    whole.put("gapsSeen", gaps.subList(0, Math.min(20, gaps.size())));
    whole.put("pushesReceived", pushes.size());
    rows.add(whole);
    return (long) whole.get("lost") == 0 && (long) whole.get("duplicated") == 0 && gaps.isEmpty();
  }

  private static Map<String, Object> row(String name, Collection<SteadySender.Send> sends, ChaosCheck.Holding eventLog,
      ChaosCheck.Holding postgres, long gaps, long from, long pushGap) {
    Map<String, Integer> logCopies = eventLog.copies();
    Map<String, Integer> pgCopies = postgres.copies();
    Map<String, Long> logSeqs = eventLog.seqs();
    List<Outbox.Delivery> done = sends.stream().map(SteadySender.Send::done).filter(Objects::nonNull).toList();
    long lost = done.stream().filter(d -> !logCopies.containsKey(d.clientMsgId()) || !pgCopies.containsKey(d.clientMsgId()))
        .count();
    long duplicated = sends.stream().filter(send -> logCopies.getOrDefault(send.clientMsgId(), 0) > 1
        || pgCopies.getOrDefault(send.clientMsgId(), 0) > 1).count();
    long wrongSeq = done.stream().filter(d -> !Long.valueOf(d.seq()).equals(logSeqs.get(d.clientMsgId()))).count();
    List<Outbox.Delivery> failed = done.stream().filter(Outbox.Delivery::firstAttemptFailed).toList();
    return Result.row("window", name, "sendsTried", sends.size(), "answered200", done.size(), "lost", lost,
        "duplicated", duplicated, "seqGaps", gaps, "wrongSeqAnswered", wrongSeq, "firstAttemptsNot200", failed.size(),
        "sendsFailedUntilS", failed.stream().mapToLong(d -> ms(d.firstTried()) - from).max().orElse(0) / 1000.0,
        "longestWaitFor200S", done.stream().mapToLong(d -> d.stored() - d.firstTried()).max().orElse(0) / 1e9,
        "pushPausedS", pushGap < 0 ? null : pushGap / 1000.0);
  }

  /**
   * Adds to each window's row (and the whole run's) what the client saw: the answers to its send
   * attempts by half of the events topic's partitions (each half one shard with
   * {@code SEQSYNC_CLUSTER_SHARDS=2}) while the fault lasted and after it was undone, and the pages
   * {@link PageWatch} read: how many, how many not answered 200, how many stale. Whether none was.
   */
  @SuppressWarnings("unchecked")
  private boolean addClientView(List<Window> windows, List<SteadySender.Answer> answers, List<PageWatch.Read> reads) {
    for (Object row : rows) {
      if (row instanceof Map<?, ?> map && map.get("window") instanceof String name) {
        Window w = windows.stream().filter(window -> window.name().equals(name)).findFirst()
            .orElse(new Window(name, 0, Long.MAX_VALUE, Long.MAX_VALUE));
        Map<String, Object> columns = (Map<String, Object>) map;
        columns.put("answersWhileFaulted", byHalf(answers, at -> at >= w.from() && at < w.undone()));
        columns.put("answersAfterUndone", byHalf(answers, at -> at >= w.undone() && at < w.to()));
        List<PageWatch.Read> in = reads.stream().filter(read -> ms(read.at()) >= w.from() && ms(read.at()) < w.to()).toList();
        columns.put("pagesRead", in.size());
        columns.put("pagesNot200", in.stream().filter(read -> read.status() != 200).count());
        columns.put("pagesStale", in.stream().filter(read -> read.missed() > 0).count());
      }
    }
    return reads.stream().noneMatch(read -> read.missed() > 0);
  }

  // Status (0: no answer) -> attempts, per half of the partitions: "p0-2", "p3-5".
  private Map<String, Map<Integer, Long>> byHalf(List<SteadySender.Answer> answers, LongPredicate when) {
    int half = partitions / 2;
    return answers.stream().filter(answer -> when.test(ms(answer.at()))).collect(Collectors.groupingBy(
        answer -> Faults.partition(answer.conv(), partitions) < half ? "p0-" + (half - 1) : "p" + half + "-" + (partitions - 1),
        TreeMap::new, Collectors.groupingBy(SteadySender.Answer::status, TreeMap::new, Collectors.counting())));
  }

  // The longest time without a push of the busy conversation from the fault's start to the window's end.
  private static long pushGap(List<Long> pushes, Window window) {
    long previous = window.from();
    long longest = 0;
    for (long at : pushes) {
      if (at > window.from() && at <= window.to()) {
        longest = Math.max(longest, at - previous);
        previous = at;
      }
    }
    return Math.max(longest, window.to() - previous);
  }

  /** A nanoTime as ms since the run began. */
  static long ms(long nanoTime) {
    return (nanoTime - START) / 1_000_000;
  }

  static long now() {
    return ms(System.nanoTime());
  }

  static void log(String line) {
    System.err.printf("%s [%6.1f s] %s%n", Instant.now(), now() / 1000.0, line);
  }
}
