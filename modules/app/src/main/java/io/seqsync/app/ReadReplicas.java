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
import io.seqsync.store.replica.ShardReplicas;
import io.seqsync.store.shard.ShardMap;
import io.seqsync.store.shard.Shards;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The read replicas of each shard's primary (docs/design.md, "Read replicas"): those of
 * {@code postgres.replica-jdbc-urls} unsharded, each {@code postgres.shards} entry's with shards. A
 * pool per replica (the requests pool's size and statement timeout), a {@link ReplicaWatch} per
 * shard, the seqs this instance heard committed, pages and handshakes routed through them, their
 * lag (labelled with the shard) in the metrics and in {@code /health/ready} (reported, never making
 * the instance unready: the primary answers what a replica cannot). Without replicas, everything
 * reads the primaries and the metrics say 0. Closes the pools and the watches.
 */
final class ReadReplicas implements AutoCloseable {
  // Conversations remembered; past it the memory resets (CommittedSeqs) at some 100 bytes each.
  private static final int REMEMBERED_CONVERSATIONS = 200_000;

  private final List<Database> pools;
  private final List<ReplicaWatch> watches;
  private final ShardReplicas replicas;
  private final CommittedSeqs committed = new CommittedSeqs(REMEMBERED_CONVERSATIONS, System::nanoTime);
  private final ReadCounts counts;

  private ReadReplicas(ShardMap primaries, List<ReplicatedDatabase> databases, List<Database> pools) {
    this.pools = pools;
    this.watches = databases.stream().map(ReplicaWatch::start).toList();
    this.replicas = new ShardReplicas(primaries, databases, watches);
    this.counts = new ReadCounts(databases.size());
  }

  /** Opens the configured replicas' pools beside each shard's primary (its requests pool). */
  static ReadReplicas open(PostgresSettings postgres, Shards shards, MeterRegistry registry) {
    List<Database> pools = new ArrayList<>();
    List<ReplicatedDatabase> databases = new ArrayList<>();
    try {
      for (Shards.Shard shard : shards.shards()) {
        List<Database> replicas = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (String url : postgres.replicasOf(shard.jdbcUrl())) {
          Database pool = Database.openRequests(url, postgres.user(), postgres.password(), postgres.poolSize(),
              postgres.statementTimeout());
          pools.add(pool);
          replicas.add(pool);
          names.add(Redaction.withoutSecrets(url));
        }
        databases.add(new ReplicatedDatabase(shard.requests(), replicas, names));
      }
    } catch (RuntimeException e) {
      pools.forEach(Database::close);
      throw e;
    }
    ReadReplicas replicas = new ReadReplicas(shards.requests(), databases, pools);
    replicas.register(registry);
    return replicas;
  }

  /** What this instance heard committed: feed it every APPENDED outcome before its send is answered. */
  CommittedSeqs committed() {
    return committed;
  }

  /** Pages and handshakes through the replicas; {@code sync} builds the handshake's queries on the shards' databases. */
  ReplicaReads reads(Function<ShardMap, SyncQueries> sync) {
    return new ReplicaReads(Routed.of(replicas, MessageQueries::new, committed, counts),
        Routed.of(replicas, sync, committed, counts));
  }

  /**
   * Each replica's shard, state and lag, when there are replicas; always up (optional): the
   * primary answers in a replica's place.
   */
  Optional<HealthProbe> probe() {
    if (pools.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(HealthProbe.optional("postgresReplicas", () -> {
      long now = System.nanoTime();
      List<Map<String, Object>> replicas = new ArrayList<>();
      for (int shard = 0; shard < watches.size(); shard++) {
        for (ReplicaWatch.State state : watches.get(shard).states()) {
          Map<String, Object> one = new LinkedHashMap<>();
          one.put("replica", state.name());
          one.put("shard", shard);
          one.put("state", state.up() ? "up" : "down");
          one.put("lagSeconds", finite(state.lagSeconds(now)));
          one.put("lagBytes", state.lagBytes());
          state.error().ifPresent(error -> one.put("error", error));
          replicas.add(one);
        }
      }
      Map<String, Object> detail = new LinkedHashMap<>();
      detail.put("replicas", replicas);
      detail.put("maxLagSeconds", ReplicaWatch.MAX_LAG.toMillis() / 1000.0);
      return DependencyState.up(detail);
    }));
  }

  private void register(MeterRegistry registry) {
    Gauge.builder("seqsync.postgres.replica.lag.max.seconds", this, replicas -> replicas.worstLag())
        .description("the largest lag of a read replica of any shard, in seconds (0 without replicas)").register(registry);
    Gauge.builder("seqsync.postgres.replicas.down", this, replicas -> replicas.states().filter(state -> !state.up()).count())
        .description("read replicas that did not answer their last check").register(registry);
    for (int shard = 0; shard < watches.size(); shard++) {
      ReplicaWatch watch = watches.get(shard);
      String label = Integer.toString(shard);
      for (int i = 0; i < watch.states().size(); i++) {
        int index = i;
        String name = watch.states().get(i).name();
        Gauge.builder("seqsync.postgres.replica.lag.seconds", watch,
                watched -> finite(watched.states().get(index).lagSeconds(System.nanoTime())))
            .tag("replica", name).tag("shard", label).register(registry);
        Gauge.builder("seqsync.postgres.replica.lag.bytes", watch, watched -> watched.states().get(index).lagBytes())
            .tag("replica", name).tag("shard", label).register(registry);
      }
      for (ReadCounts.Outcome outcome : ReadCounts.Outcome.values()) {
        int counted = shard;
        FunctionCounter.builder("seqsync.postgres.routed.reads", counts, routed -> routed.count(counted, outcome))
            .tag("target", outcome == ReadCounts.Outcome.REPLICA ? "replica" : "primary")
            .tag("reason", outcome.name().toLowerCase(Locale.ROOT)).tag("shard", label)
            .description("pages and handshakes by the database that answered them, per shard (a handshake counts"
                + " in every shard)").register(registry);
      }
    }
  }

  private java.util.stream.Stream<ReplicaWatch.State> states() {
    return watches.stream().flatMap(watch -> watch.states().stream());
  }

  private double worstLag() {
    long now = System.nanoTime();
    return states().mapToDouble(state -> finite(state.lagSeconds(now))).max().orElse(0);
  }

  // A replica never consistent yet reports a day rather than infinity (JSON has no infinity).
  private static double finite(double seconds) {
    return Math.min(seconds, 86_400);
  }

  @Override
  public void close() {
    watches.forEach(ReplicaWatch::close);
    pools.forEach(Database::close);
  }
}
