package io.seqsync.app;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.seqsync.config.PostgresSettings;
import io.seqsync.config.Redaction;
import io.seqsync.ingress.health.DependencyState;
import io.seqsync.ingress.health.HealthProbe;
import io.seqsync.store.Database;
import io.seqsync.store.MessageQueries;
import io.seqsync.store.SyncQueries;
import io.seqsync.store.replica.CommittedSeqs;
import io.seqsync.store.replica.ReadCounts;
import io.seqsync.store.replica.ReplicaReads;
import io.seqsync.store.replica.ReplicaWatch;
import io.seqsync.store.replica.ReplicatedDatabase;
import io.seqsync.store.replica.Routed;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.jdbi.v3.core.Jdbi;

/**
 * The read replicas of {@code postgres.replica-jdbc-urls} (docs/design.md, "Read replicas"): a pool
 * per replica (the requests pool's size and statement timeout), their {@link ReplicaWatch}, the
 * seqs this instance heard committed, pages and handshakes routed through them, their lag in the
 * metrics and in {@code /health/ready} (reported, never making the instance unready: the primary
 * answers what a replica cannot). Without replicas, everything reads the primary and the metrics
 * say 0. Closes the pools and the watch.
 */
final class ReadReplicas implements AutoCloseable {
  // Conversations remembered; past it the memory resets (CommittedSeqs) at some 100 bytes each.
  private static final int REMEMBERED_CONVERSATIONS = 200_000;

  private final List<Database> pools;
  private final ReplicatedDatabase database;
  private final ReplicaWatch watch;
  private final CommittedSeqs committed = new CommittedSeqs(REMEMBERED_CONVERSATIONS, System::nanoTime);
  private final ReadCounts counts = new ReadCounts();

  private ReadReplicas(Database primary, List<Database> pools, List<String> names) {
    this.pools = pools;
    this.database = new ReplicatedDatabase(primary, pools, names);
    this.watch = ReplicaWatch.start(database);
  }

  /** Opens the configured replicas' pools beside {@code primary} (the requests pool). */
  static ReadReplicas open(PostgresSettings postgres, Database primary, MeterRegistry registry) {
    List<Database> pools = new ArrayList<>();
    List<String> names = new ArrayList<>();
    try {
      for (String url : postgres.replicaJdbcUrls()) {
        pools.add(Database.openRequests(url, postgres.user(), postgres.password(), postgres.poolSize(),
            postgres.statementTimeout()));
        names.add(Redaction.withoutSecrets(url));
      }
    } catch (RuntimeException e) {
      pools.forEach(Database::close);
      throw e;
    }
    ReadReplicas replicas = new ReadReplicas(primary, pools, names);
    replicas.register(registry);
    return replicas;
  }

  /** What this instance heard committed: feed it every APPENDED outcome before its send is answered. */
  CommittedSeqs committed() {
    return committed;
  }

  /** Pages and handshakes through the replicas; {@code sync} builds the handshake's queries on a database. */
  ReplicaReads reads(Function<Jdbi, SyncQueries> sync) {
    return new ReplicaReads(Routed.of(database, MessageQueries::new, watch, committed, counts),
        Routed.of(database, sync, watch, committed, counts));
  }

  /**
   * Each replica's state and lag, when there are replicas; always up (optional): the primary
   * answers in a replica's place.
   */
  Optional<HealthProbe> probe() {
    if (database.replicas().isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(HealthProbe.optional("postgresReplicas", () -> {
      long now = System.nanoTime();
      List<Map<String, Object>> replicas = new ArrayList<>();
      for (ReplicaWatch.State state : watch.states()) {
        Map<String, Object> one = new LinkedHashMap<>();
        one.put("replica", state.name());
        one.put("state", state.up() ? "up" : "down");
        one.put("lagSeconds", finite(state.lagSeconds(now)));
        one.put("lagBytes", state.lagBytes());
        state.error().ifPresent(error -> one.put("error", error));
        replicas.add(one);
      }
      Map<String, Object> detail = new LinkedHashMap<>();
      detail.put("replicas", replicas);
      detail.put("maxLagSeconds", ReplicaWatch.MAX_LAG.toMillis() / 1000.0);
      return DependencyState.up(detail);
    }));
  }

  private void register(MeterRegistry registry) {
    Gauge.builder("seqsync.postgres.replica.lag.max.seconds", this, replicas -> replicas.worstLag())
        .description("the largest lag of a read replica, in seconds (0 without replicas)").register(registry);
    Gauge.builder("seqsync.postgres.replicas.down", this,
            replicas -> replicas.watch.states().stream().filter(state -> !state.up()).count())
        .description("read replicas that did not answer their last check").register(registry);
    List<ReplicaWatch.State> states = watch.states();
    for (int i = 0; i < states.size(); i++) {
      int index = i;
      Gauge.builder("seqsync.postgres.replica.lag.seconds", this,
              replicas -> finite(replicas.watch.states().get(index).lagSeconds(System.nanoTime())))
          .tag("replica", states.get(i).name()).register(registry);
      Gauge.builder("seqsync.postgres.replica.lag.bytes", this, replicas -> replicas.watch.states().get(index).lagBytes())
          .tag("replica", states.get(i).name()).register(registry);
    }
    for (ReadCounts.Outcome outcome : ReadCounts.Outcome.values()) {
      FunctionCounter.builder("seqsync.postgres.routed.reads", counts, routed -> routed.count(outcome))
          .tag("target", outcome == ReadCounts.Outcome.REPLICA ? "replica" : "primary")
          .tag("reason", outcome.name().toLowerCase(Locale.ROOT))
          .description("pages and handshakes by the database that answered them").register(registry);
    }
  }

  private double worstLag() {
    long now = System.nanoTime();
    return watch.states().stream().mapToDouble(state -> finite(state.lagSeconds(now))).max().orElse(0);
  }

  // A replica never consistent yet reports a day rather than infinity (JSON has no infinity).
  private static double finite(double seconds) {
    return Math.min(seconds, 86_400);
  }

  @Override
  public void close() {
    watch.close();
    pools.forEach(Database::close);
  }
}
