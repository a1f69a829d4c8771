package io.seqsync.store.replica;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.JdbiException;

/**
 * Reads of one kind ({@code Q}, built once per database) routed between a primary and its
 * replicas, read-your-writes: a read goes to a replica the {@link ReplicaWatch} finds fit (replayed
 * everything committed before this instance's {@link CommittedSeqs#horizon()}, round robin), and
 * its answer is kept only if the caller's check finds it at least as new as what the request needs
 * (what the client proved it saw, and what this instance knows was committed); otherwise, and when
 * the replica fails, the primary answers. Thread-safe.
 */
public final class Routed<Q> {
  private final Q primary;
  private final List<Q> replicas;
  private final ReplicaWatch watch;
  private final CommittedSeqs committed;
  private final ReadCounts counts;
  private final AtomicInteger turn = new AtomicInteger();

  private Routed(Q primary, List<Q> replicas, ReplicaWatch watch, CommittedSeqs committed, ReadCounts counts) {
    this.primary = primary;
    this.replicas = List.copyOf(replicas);
    this.watch = watch;
    this.committed = committed;
    this.counts = counts;
  }

  /** {@code make} applied to the primary and to each replica of {@code database}. */
  public static <Q> Routed<Q> of(ReplicatedDatabase database, Function<Jdbi, Q> make, ReplicaWatch watch,
      CommittedSeqs committed, ReadCounts counts) {
    List<Q> replicas = new ArrayList<>();
    database.replicas().forEach(replica -> replicas.add(make.apply(replica.jdbi())));
    return new Routed<>(make.apply(database.primary().jdbi()), replicas, watch, committed, counts);
  }

  /** Every read on {@code primary}. */
  public static <Q> Routed<Q> primaryOnly(Q primary) {
    return new Routed<>(primary, List.of(), null, new CommittedSeqs(1, System::nanoTime), new ReadCounts());
  }

  /** The queries on the primary (reads that must not lag, and writes). */
  public Q primary() {
    return primary;
  }

  /**
   * A read of one conversation: a replica's answer is kept if its watermark (the conversation's
   * latest seq it read) is at least {@code seen}, the seq the client proved it has, and at least
   * the latest seq this instance knows committed.
   */
  public <R> R conversation(String convId, long seen, Function<Q, R> query, ToLongFunction<R> watermark) {
    return read(query, (answer, known) -> watermark.applyAsLong(answer) >= Math.max(seen, known.seq(convId)));
  }

  /** {@code query} on a fit replica if {@code current} accepts its answer, else on the primary. */
  public <R> R read(Function<Q, R> query, BiPredicate<R, CommittedSeqs> current) {
    int replica = pick();
    if (replica < 0) {
      counts.add(ReadCounts.Outcome.PRIMARY_NO_REPLICA);
      return query.apply(primary);
    }
    try {
      R answer = query.apply(replicas.get(replica));
      if (current.test(answer, committed)) {
        counts.add(ReadCounts.Outcome.REPLICA);
        return answer;
      }
      counts.add(ReadCounts.Outcome.PRIMARY_STALE);
    } catch (JdbiException e) {
      counts.add(ReadCounts.Outcome.PRIMARY_REPLICA_FAILED);
    }
    return query.apply(primary);
  }

  // A fit replica, taking turns; -1 when none is.
  private int pick() {
    int size = replicas.size();
    if (size == 0) {
      return -1;
    }
    long horizon = committed.horizon();
    int first = Math.floorMod(turn.getAndIncrement(), size);
    for (int i = 0; i < size; i++) {
      int candidate = (first + i) % size;
      if (watch.fit(candidate, horizon)) {
        return candidate;
      }
    }
    return -1;
  }
}
