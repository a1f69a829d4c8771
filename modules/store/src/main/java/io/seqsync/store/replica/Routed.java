package io.seqsync.store.replica;

import io.seqsync.store.shard.ShardMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import org.jdbi.v3.core.JdbiException;

/**
 * Reads of one kind ({@code Q}, built on a {@link ShardMap}) routed between each shard's primary
 * and its replicas, read-your-writes: a read goes to replicas the shards' {@link ReplicaWatch}es
 * find fit (replayed everything committed before this instance's {@link CommittedSeqs#horizon()},
 * taking turns) — a conversation's read to one of its shard's, a read spanning shards to one of
 * each shard that has one — and its answer is kept only if the caller's check finds it at least as
 * new as what the request needs (what the client proved it saw, and what this instance knows was
 * committed); otherwise, and when a replica fails, the primaries answer. Thread-safe.
 */
public final class Routed<Q> {
  // A shard a read does not touch (another conversation's): neither chosen nor counted.
  private static final int UNTOUCHED = -2;
  private static final int PRIMARY = -1;

  private final Q primary;
  private final ShardReplicas replicas;
  private final Function<ShardMap, Q> make;
  private final CommittedSeqs committed;
  private final ReadCounts counts;
  // The queries on each combination of chosen replicas, built once.
  private final Map<List<Integer>, Q> views = new ConcurrentHashMap<>();

  private Routed(Q primary, ShardReplicas replicas, Function<ShardMap, Q> make, CommittedSeqs committed,
      ReadCounts counts) {
    this.primary = primary;
    this.replicas = replicas;
    this.make = make;
    this.committed = committed;
    this.counts = counts;
  }

  /** {@code make} applied to the shards' primaries and, as reads need them, to their replicas. */
  public static <Q> Routed<Q> of(ShardReplicas replicas, Function<ShardMap, Q> make, CommittedSeqs committed,
      ReadCounts counts) {
    if (counts.shards() != replicas.size()) {
      throw new IllegalArgumentException(counts.shards() + " shards counted of " + replicas.size());
    }
    return new Routed<>(make.apply(replicas.primaries()), replicas, make, committed, counts);
  }

  /** Every read on {@code primary}. */
  public static <Q> Routed<Q> primaryOnly(Q primary) {
    return new Routed<>(primary, null, null, null, null);
  }

  /** The queries on the primaries (reads that must not lag, and writes). */
  public Q primary() {
    return primary;
  }

  /**
   * A read of one conversation, on its shard: a replica's answer is kept if its watermark (the
   * conversation's latest seq it read) is at least {@code seen}, the seq the client proved it has,
   * and at least the latest seq this instance knows committed.
   */
  public <R> R conversation(String convId, long seen, Function<Q, R> query, ToLongFunction<R> watermark) {
    BiPredicate<R, CommittedSeqs> current =
        (answer, known) -> watermark.applyAsLong(answer) >= Math.max(seen, known.seq(convId));
    if (replicas == null) {
      return query.apply(primary);
    }
    int shard = replicas.primaries().indexOf(convId);
    List<Integer> choice = new ArrayList<>(replicas.size());
    for (int i = 0; i < replicas.size(); i++) {
      choice.add(i == shard ? replicas.pick(i, committed.horizon()) : UNTOUCHED);
    }
    return run(choice, query, current);
  }

  /** {@code query} over every shard, on a fit replica of each that has one if {@code current} accepts the answer. */
  public <R> R read(Function<Q, R> query, BiPredicate<R, CommittedSeqs> current) {
    if (replicas == null) {
      return query.apply(primary);
    }
    long horizon = committed.horizon();
    List<Integer> choice = new ArrayList<>(replicas.size());
    for (int i = 0; i < replicas.size(); i++) {
      choice.add(replicas.pick(i, horizon));
    }
    return run(choice, query, current);
  }

  private <R> R run(List<Integer> choice, Function<Q, R> query, BiPredicate<R, CommittedSeqs> current) {
    if (choice.stream().allMatch(replica -> replica < 0)) {
      count(choice, ReadCounts.Outcome.PRIMARY_NO_REPLICA);
      return query.apply(primary);
    }
    try {
      R answer = query.apply(views.computeIfAbsent(choice.stream().map(replica -> Math.max(replica, PRIMARY)).toList(),
          chosen -> make.apply(replicas.view(chosen))));
      if (current.test(answer, committed)) {
        count(choice, ReadCounts.Outcome.REPLICA);
        return answer;
      }
      count(choice, ReadCounts.Outcome.PRIMARY_STALE);
    } catch (JdbiException e) {
      count(choice, ReadCounts.Outcome.PRIMARY_REPLICA_FAILED);
    }
    return query.apply(primary);
  }

  // Each touched shard: the outcome where a replica was chosen, else "no replica".
  private void count(List<Integer> choice, ReadCounts.Outcome outcome) {
    for (int shard = 0; shard < choice.size(); shard++) {
      int replica = choice.get(shard);
      if (replica != UNTOUCHED) {
        counts.add(shard, replica >= 0 ? outcome : ReadCounts.Outcome.PRIMARY_NO_REPLICA);
      }
    }
  }
}
