package io.seqsync.store.replica;

import io.seqsync.store.Database;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How far each replica has replayed, refreshed every {@link #REFRESH} on a thread of its own, so
 * that routing a read costs no query. Each round reads the primary's WAL position, then each
 * replica's replay position; a replica that replayed past the primary's position of an earlier
 * round holds every transaction committed before that round began: its {@code consistentAsOf}
 * (System.nanoTime) is that round's start. Its lag is the time since then, and the WAL bytes it is
 * behind. A replica is {@link #fit} for a read when it answered its last round, is at most
 * {@link #MAX_LAG} behind, and is consistent as of the given horizon. Thread-safe.
 */
public final class ReplicaWatch implements AutoCloseable {
  public static final Duration REFRESH = Duration.ofMillis(100);
  /** Beyond this lag a replica takes no reads: its answers would mostly fail the freshness check. */
  public static final Duration MAX_LAG = Duration.ofSeconds(2);
  private static final Logger log = LoggerFactory.getLogger(ReplicaWatch.class);
  private static final int SAMPLES = 100;
  private static final String PRIMARY_POSITION = "select (pg_current_wal_lsn() - '0/0'::pg_lsn)::bigint";
  // Null on a server that is not a standby, which is not a replica to read from.
  private static final String REPLAY_POSITION = "select (pg_last_wal_replay_lsn() - '0/0'::pg_lsn)::bigint";

  /** One replica as of the last round: {@code consistentAsOf} is 0 before it was ever consistent. */
  public record State(String name, boolean up, long lagBytes, long consistentAsOf, Optional<String> error) {
    /** Seconds since the replica was last known to hold everything the primary had. */
    public double lagSeconds(long nowNanos) {
      return consistentAsOf == 0 ? Double.POSITIVE_INFINITY : (nowNanos - consistentAsOf) / 1e9;
    }
  }

  private record Sample(long nanos, long position) {}

  private final ReplicatedDatabase database;
  private final LongSupplier nanoClock;
  private final Deque<Sample> primarySamples = new ArrayDeque<>();
  private final ScheduledExecutorService timer;
  private volatile List<State> states;

  private ReplicaWatch(ReplicatedDatabase database, LongSupplier nanoClock) {
    this.database = database;
    this.nanoClock = nanoClock;
    List<State> initial = new ArrayList<>();
    for (String name : database.replicaNames()) {
      initial.add(new State(name, false, 0, 0, Optional.of("not checked yet")));
    }
    this.states = List.copyOf(initial);
    this.timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = new Thread(runnable, "seqsync-replica-watch");
      thread.setDaemon(true);
      return thread;
    });
  }

  /** Watches {@code database}'s replicas from now on (nothing runs without replicas). */
  public static ReplicaWatch start(ReplicatedDatabase database) {
    ReplicaWatch watch = new ReplicaWatch(database, System::nanoTime);
    if (!database.replicas().isEmpty()) {
      watch.timer.scheduleWithFixedDelay(watch::refreshQuietly, 0, REFRESH.toMillis(), TimeUnit.MILLISECONDS);
    }
    return watch;
  }

  /** Every replica's state as of the last round, in the order of the configuration. */
  public List<State> states() {
    return states;
  }

  /** Whether replica {@code index} may answer a read that needs every commit made before {@code horizon}. */
  public boolean fit(int index, long horizon) {
    State state = states.get(index);
    return state.up() && state.consistentAsOf() != 0 && state.consistentAsOf() - horizon >= 0
        && nanoClock.getAsLong() - state.consistentAsOf() <= MAX_LAG.toNanos();
  }

  private void refreshQuietly() {
    try {
      refresh();
    } catch (RuntimeException e) {
      log.warn("replica watch round failed", e);
    }
  }

  private void refresh() {
    long start = nanoClock.getAsLong();
    try {
      long position = position(database.primary(), PRIMARY_POSITION);
      primarySamples.addLast(new Sample(start, position));
      if (primarySamples.size() > SAMPLES) {
        primarySamples.removeFirst();
      }
    } catch (RuntimeException e) {
      // The primary down: the replicas keep the consistency they had; their lag grows.
      log.debug("replica watch: primary position unavailable: {}", e.getMessage());
    }
    List<State> previous = states;
    List<State> next = new ArrayList<>(previous.size());
    for (int i = 0; i < previous.size(); i++) {
      next.add(check(previous.get(i), database.replicas().get(i)));
    }
    states = List.copyOf(next);
  }

  private State check(State previous, Database replica) {
    long replayed;
    try {
      replayed = position(replica, REPLAY_POSITION);
    } catch (RuntimeException e) {
      if (previous.up()) {
        log.warn("replica {} is down: {}", previous.name(), e.getMessage());
      }
      return new State(previous.name(), false, previous.lagBytes(), previous.consistentAsOf(),
          Optional.of(String.valueOf(e.getMessage())));
    }
    long consistentAsOf = previous.consistentAsOf();
    long newestPrimary = primarySamples.isEmpty() ? replayed : primarySamples.peekLast().position();
    for (Sample sample : primarySamples) {
      if (sample.position() <= replayed && sample.nanos() - consistentAsOf > 0) {
        consistentAsOf = sample.nanos();
      }
    }
    if (!previous.up()) {
      log.info("replica {} is up", previous.name());
    }
    return new State(previous.name(), true, Math.max(0, newestPrimary - replayed), consistentAsOf, Optional.empty());
  }

  private static long position(Database database, String sql) {
    Long position = database.jdbi().withHandle(handle -> handle.createQuery(sql).mapTo(Long.class).one());
    if (position == null) {
      throw new IllegalStateException("not a standby (no replay position)");
    }
    return position;
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
