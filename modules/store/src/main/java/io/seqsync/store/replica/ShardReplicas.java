package io.seqsync.store.replica;

import io.seqsync.store.shard.ShardMap;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.jdbi.v3.core.Jdbi;

/**
 * The streaming replicas of each shard (one shard when unsharded): the shards' primaries as a
 * {@link ShardMap}, and per shard its {@link ReplicatedDatabase} and the {@link ReplicaWatch} of
 * it. Picks a fit replica of a shard, the replicas taking turns, and builds the map in which chosen
 * replicas stand in their primaries' places. The caller owns the pools and the watches. Thread-safe.
 */
public final class ShardReplicas {
  private final ShardMap primaries;
  private final List<ReplicatedDatabase> databases;
  private final List<ReplicaWatch> watches;
  private final List<AtomicInteger> turns = new ArrayList<>();

  /** {@code databases} and {@code watches} by shard index, as {@code primaries}' shards. */
  public ShardReplicas(ShardMap primaries, List<ReplicatedDatabase> databases, List<ReplicaWatch> watches) {
    if (databases.size() != primaries.size() || watches.size() != primaries.size()) {
      throw new IllegalArgumentException(primaries.size() + " shards but " + databases.size() + " replicated databases and "
          + watches.size() + " watches");
    }
    this.primaries = primaries;
    this.databases = List.copyOf(databases);
    this.watches = List.copyOf(watches);
    databases.forEach(database -> turns.add(new AtomicInteger()));
  }

  public ShardMap primaries() {
    return primaries;
  }

  /** The number of shards. */
  public int size() {
    return databases.size();
  }

  /** A replica of {@code shard} fit for a read needing every commit before {@code horizon}; -1 when none is. */
  public int pick(int shard, long horizon) {
    int size = databases.get(shard).replicas().size();
    if (size == 0) {
      return -1;
    }
    int first = Math.floorMod(turns.get(shard).getAndIncrement(), size);
    for (int i = 0; i < size; i++) {
      int candidate = (first + i) % size;
      if (watches.get(shard).fit(candidate, horizon)) {
        return candidate;
      }
    }
    return -1;
  }

  /** The shards' databases with {@code choice[shard]}'s replica of each (a negative choice: its primary). */
  ShardMap view(List<Integer> choice) {
    List<Jdbi> chosen = new ArrayList<>(choice.size());
    for (int shard = 0; shard < choice.size(); shard++) {
      int replica = choice.get(shard);
      chosen.add(replica < 0 ? primaries.all().get(shard) : databases.get(shard).replicas().get(replica).jdbi());
    }
    return primaries.over(chosen);
  }
}
