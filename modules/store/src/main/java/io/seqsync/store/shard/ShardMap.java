package io.seqsync.store.shard;

import io.seqsync.store.StoredOffsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import org.jdbi.v3.core.Jdbi;

/**
 * Where each conversation's rows are: one Jdbi per shard, chosen by the partition of the
 * conversation's id ({@link ConversationPartitions}). Shard 0 is the home shard, which also holds
 * what belongs to no conversation (revocations, pushers, server requests, the notifier's outbox,
 * presence settings). {@link #single} is one database for every partition. Thread-safe.
 */
public final class ShardMap {
  // The fan-out's threads: daemon, and as many as the shards a query may reach at once.
  private static final ExecutorService FAN_OUT = Executors.newCachedThreadPool(runnable -> {
    Thread thread = new Thread(runnable, "seqsync-shard-fan-out");
    thread.setDaemon(true);
    return thread;
  });

  private final List<Jdbi> shards;
  private final int[] shardOfPartition;

  private ShardMap(List<Jdbi> shards, int[] shardOfPartition) {
    this.shards = List.copyOf(shards);
    this.shardOfPartition = shardOfPartition;
  }

  /** One database for every partition. */
  public static ShardMap single(Jdbi jdbi) {
    return new ShardMap(List.of(jdbi), null);
  }

  /** {@code shards} by index; {@code shardOfPartition[p]}: the index of partition p's shard. */
  public static ShardMap of(List<Jdbi> shards, int[] shardOfPartition) {
    for (int shard : shardOfPartition) {
      if (shard < 0 || shard >= shards.size()) {
        throw new IllegalArgumentException("no shard " + shard + " among " + shards.size());
      }
    }
    return new ShardMap(shards, shardOfPartition.clone());
  }

  /**
   * The same mapping of partitions over other databases, one per shard in shard order (a shard's
   * replica in its primary's place).
   */
  public ShardMap over(List<Jdbi> databases) {
    if (databases.size() != shards.size()) {
      throw new IllegalArgumentException(databases.size() + " databases for " + shards.size() + " shards");
    }
    return new ShardMap(databases, shardOfPartition);
  }

  /** The shard of what belongs to no conversation. */
  public Jdbi home() {
    return shards.get(0);
  }

  /** The shard of {@code convId}. */
  public Jdbi of(String convId) {
    return shards.get(indexOf(convId));
  }

  /** The index of the shard of {@code convId}. */
  public int indexOf(String convId) {
    return shardOfPartition == null ? 0 : shardOfPartition[ConversationPartitions.of(convId, shardOfPartition.length)];
  }

  /** The shard of partition {@code partition} of the events topic. */
  public Jdbi ofPartition(int partition) {
    return shards.get(shardOfPartition == null ? 0 : shardOfPartition[partition]);
  }

  public int indexOfPartition(int partition) {
    if (shardOfPartition == null) {
      return 0;
    }
    return partition < shardOfPartition.length ? shardOfPartition[partition] : -1;
  }

  /** Every shard, the home shard first. */
  public List<Jdbi> all() {
    return shards;
  }

  public int size() {
    return shards.size();
  }

  /** {@code items} grouped by the shard of the convId each names, in their order within each group. */
  public <T> Map<Jdbi, List<T>> byShard(Collection<T> items, Function<T, String> convId) {
    Map<Jdbi, List<T>> groups = new LinkedHashMap<>();
    for (T item : items) {
      groups.computeIfAbsent(of(convId.apply(item)), shard -> new ArrayList<>()).add(item);
    }
    return groups;
  }

  /**
   * {@code query} on every shard, in parallel when there are several, the answers in shard order.
   * A shard's failure fails the whole: an answer missing a shard would look complete.
   */
  public <T> List<T> fanOut(Function<Jdbi, T> query) {
    return fanOut(shards, query);
  }

  /** {@code query} on each of {@code targets}, as {@link #fanOut(Function)}. */
  public <T> List<T> fanOut(Collection<Jdbi> targets, Function<Jdbi, T> query) {
    if (targets.size() == 1) {
      return List.of(query.apply(targets.iterator().next()));
    }
    List<CompletableFuture<T>> answers = targets.stream()
        .map(shard -> CompletableFuture.supplyAsync(() -> query.apply(shard), FAN_OUT)).toList();
    List<T> results = new ArrayList<>(answers.size());
    for (CompletableFuture<T> answer : answers) {
      try {
        results.add(answer.join());
      } catch (CompletionException e) {
        throw e.getCause() instanceof RuntimeException cause ? cause : e;
      }
    }
    return results;
  }

  /**
   * The projector's stored next offset of each partition of {@code topic}, each read from that
   * partition's shard: a shard may still hold rows of partitions moved away from it.
   */
  public Map<Integer, Long> storedOffsets(String topic) {
    return owned(fanOut(shard -> shard.withHandle(handle -> StoredOffsets.read(handle, topic))));
  }

  /** The stored next offsets of the partitions shard {@code shard} holds, read from it alone. */
  public Map<Integer, Long> storedOffsetsOf(int shard, String topic) {
    Map<Integer, Long> owned = new HashMap<>();
    addOwned(owned, shard, shards.get(shard).withHandle(handle -> StoredOffsets.read(handle, topic)));
    return owned;
  }

  /** As {@link #storedOffsets(String)}, each shard's read within {@code timeout}. */
  public Map<Integer, Long> storedOffsets(String topic, java.time.Duration timeout) {
    return owned(fanOut(shard -> StoredOffsets.read(shard, topic, timeout)));
  }

  /** Of every shard's values by partition (in shard order), those each partition's own shard holds. */
  public Map<Integer, Long> owned(List<Map<Integer, Long>> perShard) {
    Map<Integer, Long> owned = new HashMap<>();
    for (int shard = 0; shard < perShard.size(); shard++) {
      addOwned(owned, shard, perShard.get(shard));
    }
    return owned;
  }

  // Of shard's values by partition, those of the partitions it holds.
  private void addOwned(Map<Integer, Long> owned, int shard, Map<Integer, Long> values) {
    values.forEach((partition, value) -> {
      if (indexOfPartition(partition) == shard) {
        owned.put(partition, value);
      }
    });
  }
}
