package io.seqsync.ingress.ops;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.seqsync.config.KafkaConnection;
import io.seqsync.consumers.ProjectionLag;
import io.seqsync.events.Topics;
import io.seqsync.store.DeliveryQueries;
import io.seqsync.store.SeqAnomalies;
import java.time.Duration;
import java.util.HashSet;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import org.apache.kafka.clients.admin.Admin;
import io.seqsync.store.shard.ShardMap;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the ops dashboard and the alert rules need beyond the meters the code keeps as it runs:
 * the projector's and the sequencer's lag and the sequencer group's members (Kafka's admin API),
 * the dead letters by reason (the dead-letter topic), the recorded seq gaps (PostgreSQL) and the
 * recent delivery rate (PostgreSQL). Looked up on a thread of its own every {@link #INTERVAL} (the
 * delivery figures every {@link #DELIVERY_INTERVAL}), never per request or scrape, and published as
 * gauges: {@code seqsync_projector_lag{partition}}, {@code seqsync_sequencer_lag{partition}},
 * {@code seqsync_sequencer_group_members}, {@code seqsync_dead_letters} and {@code seqsync_dead_letter_records{reason}}
 * (both once the topic as it was at start has been read, so that a restart never shows 0 and then the count),
 * {@code seqsync_delivery_recent_sends}, {@code _delivered} and {@code _on_time}; a gauge is NaN
 * until its first look succeeds. A look that fails keeps the last figures and counts
 * {@code seqsync_ops_monitor_failures_total}. Thread-safe: one thread writes, readers see an
 * immutable {@link Figures}.
 */
public final class OpsMonitor implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(OpsMonitor.class);
  static final Duration INTERVAL = Duration.ofSeconds(5);
  static final Duration DELIVERY_INTERVAL = Duration.ofMinutes(1);
  /**
   * The recent delivery rate is of the messages sent from 20 to 5 minutes ago: receivers had at
   * least 5 minutes to render and report them, and 15 minutes of messages is one indexed range.
   */
  static final Duration DELIVERY_WINDOW = Duration.ofMinutes(15);
  static final Duration DELIVERY_GRACE = Duration.ofMinutes(5);
  private static final int LATEST_ANOMALIES = 20;

  /** The delivery figures of the messages sent in [{@code fromMillis}, {@code toMillis}). */
  record RecentDelivery(long fromMillis, long toMillis, long sends, long delivered, long onTime) {}

  /** The latest of each look (null until its first success) and when the last look ended. */
  record Figures(long lookedAt, String problem, LogLag.Figures lag, DeadLetterTally.Counts deadLetters,
      SeqAnomalies.Latest anomalies, RecentDelivery delivery) {
    static final Figures NONE = new Figures(0, "not looked yet", null, null, null, null);
  }

  private final KafkaConnection kafka;
  private final Topics topics;
  private final int partitions;
  private final String sequencerGroup;
  private final ShardMap shards;
  private final Jdbi jdbi;
  private final DeliveryQueries delivery;
  private final MeterRegistry registry;
  private final Counter failures;
  private final Set<String> reasonGauges = new HashSet<>();
  private boolean deadLettersGauged;
  private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(runnable -> {
    Thread named = new Thread(runnable, "seqsync-ops-monitor");
    named.setDaemon(true);
    return named;
  });
  private volatile Figures figures = Figures.NONE;
  private Admin admin;
  private ProjectionLag projection;
  private LogLag lag;
  private DeadLetterTally deadLetters;
  private long deliveryLookedAt;

  /** Looks things up in Kafka ({@code kafka}) and PostgreSQL ({@code jdbi}). */
  public OpsMonitor(KafkaConnection kafka, Topics topics, String sequencerGroup, Jdbi jdbi, DeliveryQueries delivery,
      MeterRegistry registry) {
    this(kafka, topics, sequencerGroup, ShardMap.single(jdbi), delivery, registry);
  }

  /** With shards: the projection's lag per partition from its shard; the rest from the home shard. */
  public OpsMonitor(KafkaConnection kafka, Topics topics, String sequencerGroup, ShardMap shards,
      DeliveryQueries delivery, MeterRegistry registry) {
    this.kafka = kafka;
    this.topics = topics;
    this.partitions = topics.events().partitions();
    this.sequencerGroup = sequencerGroup;
    this.shards = shards;
    this.jdbi = shards.home();
    this.delivery = delivery;
    this.registry = registry;
    this.failures = Counter.builder("seqsync.ops.monitor.failures")
        .description("looks of the ops monitor (Kafka lag, dead letters, PostgreSQL figures) that failed").register(registry);
    for (int p = 0; p < partitions; p++) {
      int partition = p;
      gauge("seqsync.projector.lag", "events behind the event log's end, per partition (not yet in PostgreSQL)",
          f -> f.lag() == null ? Double.NaN : f.lag().projector().get(partition).lag(), "partition", partition);
      gauge("seqsync.sequencer.lag", "commands behind the command topic's end, per partition (not yet sequenced)",
          f -> f.lag() == null ? Double.NaN : f.lag().sequencer().partitions().get(partition).lag(), "partition", partition);
    }
    gauge("seqsync.sequencer.group.members", "members of the sequencer's consumer group (0: nothing sequences)",
        f -> f.lag() == null ? Double.NaN : f.lag().sequencer().members(), null, 0);
    gauge("seqsync.delivery.recent.sends", "messages sent 20 to 5 minutes ago (R24)",
        f -> f.delivery() == null ? Double.NaN : f.delivery().sends(), null, 0);
    gauge("seqsync.delivery.recent.delivered", "of those, the ones another member rendered",
        f -> f.delivery() == null ? Double.NaN : f.delivery().delivered(), null, 0);
    gauge("seqsync.delivery.recent.on.time", "of those, the ones first rendered within delivery.render-target",
        f -> f.delivery() == null ? Double.NaN : f.delivery().onTime(), null, 0);
  }

  /** Starts looking, at once and then every {@link #INTERVAL}. */
  public OpsMonitor start() {
    thread.scheduleWithFixedDelay(this::lookSafely, 0, INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
    return this;
  }

  /** The latest figures (immutable). */
  Figures figures() {
    return figures;
  }

  private void connect() {
    if (deadLetters != null) {
      return;
    }
    Properties props = kafka.properties();
    if (admin == null) {
      admin = Admin.create(props);
      projection = new ProjectionLag(kafka, topics.events().name(), shards::storedOffsets);
      lag = new LogLag(admin, projection, topics.commands().name(), partitions, sequencerGroup);
    }
    deadLetters = new DeadLetterTally(kafka, topics.deadLetters().name());
  }

  // A failure must not escape: it would cancel the schedule for good.
  private void lookSafely() {
    try {
      look();
    } catch (RuntimeException | Error e) {
      failures.increment();
      log.warn("ops monitor: a look failed", e);
    }
  }

  private void look() {
    Figures last = figures;
    StringBuilder problems = new StringBuilder();
    boolean connected = attempt("Kafka", () -> {
      connect();
      return true;
    }, false, problems);
    LogLag.Figures lagFigures = connected ? attempt("Kafka lag", () -> lag.look(), last.lag(), problems) : last.lag();
    DeadLetterTally.Counts letters = connected
        ? attempt("dead letters", () -> deadLetters.look(), last.deadLetters(), problems) : last.deadLetters();
    SeqAnomalies.Latest anomalies = attempt("seq anomalies",
        () -> new SeqAnomalies(jdbi).latest(LATEST_ANOMALIES), last.anomalies(), problems);
    RecentDelivery recent = last.delivery();
    long now = System.currentTimeMillis();
    if (now - deliveryLookedAt >= DELIVERY_INTERVAL.toMillis()) {
      recent = attempt("delivery", () -> recentDelivery(now), last.delivery(), problems);
      deliveryLookedAt = now;
    }
    figures = new Figures(now, problems.isEmpty() ? null : problems.toString(), lagFigures, letters, anomalies, recent);
    if (letters != null && letters.caughtUp()) {
      if (!deadLettersGauged) {
        deadLettersGauged = true;
        Gauge.builder("seqsync.dead.letters", this, monitor -> monitor.figures.deadLetters().total())
            .description("dead-letter records, read from the dead-letter topic from its oldest kept").register(registry);
      }
      letters.byReason().keySet().forEach(this::reasonGauge);
    }
  }

  private RecentDelivery recentDelivery(long now) {
    long to = now - DELIVERY_GRACE.toMillis();
    long from = to - DELIVERY_WINDOW.toMillis();
    DeliveryQueries.Report report = delivery.report(from, to);
    return new RecentDelivery(from, to, report.sends(), report.delivered(), report.onTime());
  }

  private void reasonGauge(String reason) {
    if (reasonGauges.add(reason)) {
      Gauge.builder("seqsync.dead.letter.records", this, monitor -> {
        DeadLetterTally.Counts counts = monitor.figures.deadLetters();
        return counts == null ? Double.NaN : counts.byReason().getOrDefault(reason, 0L);
      }).description("dead-letter records by reason, read from the dead-letter topic from its oldest kept")
          .tag("reason", reason).register(registry);
    }
  }

  private void gauge(String name, String description, ToDoubleFunction<Figures> value, String tag, int partition) {
    Gauge.Builder<OpsMonitor> gauge = Gauge.builder(name, this, monitor -> value.applyAsDouble(monitor.figures))
        .description(description);
    if (tag != null) {
      gauge.tag(tag, Integer.toString(partition));
    }
    gauge.register(registry);
  }

  private interface Look<T> {
    T run() throws Exception;
  }

  private <T> T attempt(String what, Look<T> look, T previous, StringBuilder problems) {
    try {
      return look.run();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return previous;
    } catch (Exception e) {
      failures.increment();
      String problem = what + ": " + e;
      problems.append(problems.isEmpty() ? "" : "; ").append(problem);
      if (figures.problem() == null || !figures.problem().contains(problem)) { // once per outage, not every look
        log.warn("ops monitor: {} could not be looked up: {}", what, e.toString());
      }
      return previous;
    }
  }

  @Override
  public void close() {
    thread.shutdownNow();
    try {
      thread.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (deadLetters != null) {
      deadLetters.close();
    }
    if (projection != null) {
      projection.close();
    }
    if (admin != null) {
      admin.close(Duration.ofSeconds(5));
    }
  }
}
