package io.seqsync.store.shard;

import io.seqsync.store.Database;
import io.seqsync.store.StatementTimeouts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Jdbi;

/**
 * The PostgreSQL primaries of the projection, one per shard, each with its two pools: the
 * background one (projectors and jobs, no statement timeout; opening it migrates the shard's
 * schema, so every shard has every table) and the requests one (what users drive). Shard 0 holds
 * partition 0 and is the home shard. Closing closes every pool.
 */
public final class Shards implements AutoCloseable {
  /** One shard: its primary's two pools (its read replicas: the app's ReadReplicas). */
  public record Shard(int index, String jdbcUrl, Database background, Database requests) {}

  /** How to open the pools of every shard. */
  public record Pools(String user, String password, int requestsPoolSize, int backgroundPoolSize,
      Duration statementTimeout) {}

  private final List<Shard> shards;
  private final ShardMap background;
  private final ShardMap requests;
  private final StatementTimeouts timeouts;

  private Shards(List<Shard> shards, int[] shardOfPartition, StatementTimeouts timeouts) {
    this.shards = List.copyOf(shards);
    this.timeouts = timeouts;
    List<Jdbi> backgrounds = shards.stream().map(shard -> shard.background().jdbi()).toList();
    List<Jdbi> requested = shards.stream().map(shard -> shard.requests().jdbi()).toList();
    this.background = shardOfPartition == null ? ShardMap.single(backgrounds.get(0)) : ShardMap.of(backgrounds, shardOfPartition);
    this.requests = shardOfPartition == null ? ShardMap.single(requested.get(0)) : ShardMap.of(requested, shardOfPartition);
  }

  /**
   * Opens the shards: {@code urlOfPartition[p]} is the primary of partition p (distinct URLs are
   * distinct shards, numbered in order of their first partition); a single URL for every partition
   * is one unsharded database. A failure closes what was opened.
   */
  public static Shards open(List<String> urlOfPartition, Pools pools) {
    Map<String, Integer> indexOfUrl = new LinkedHashMap<>();
    int[] shardOfPartition = new int[urlOfPartition.size()];
    for (int partition = 0; partition < urlOfPartition.size(); partition++) {
      String url = urlOfPartition.get(partition);
      shardOfPartition[partition] = indexOfUrl.computeIfAbsent(url, key -> indexOfUrl.size());
    }
    StatementTimeouts timeouts = new StatementTimeouts();
    List<Shard> opened = new ArrayList<>();
    try {
      for (Map.Entry<String, Integer> url : indexOfUrl.entrySet()) {
        Database background = Database.open(url.getKey(), pools.user(), pools.password(), pools.backgroundPoolSize());
        try {
          opened.add(new Shard(url.getValue(), url.getKey(), background, Database.openRequests(url.getKey(),
              pools.user(), pools.password(), pools.requestsPoolSize(), pools.statementTimeout(), timeouts)));
        } catch (RuntimeException e) {
          background.close();
          throw e;
        }
      }
    } catch (RuntimeException e) {
      opened.forEach(Shards::close);
      throw e;
    }
    return new Shards(opened, opened.size() == 1 ? null : shardOfPartition, timeouts);
  }

  public List<Shard> shards() {
    return shards;
  }

  /** The home shard's background pool. */
  public Database home() {
    return shards.get(0).background();
  }

  /** The home shard's requests pool. */
  public Database homeRequests() {
    return shards.get(0).requests();
  }

  /** The background pools by shard. */
  public ShardMap background() {
    return background;
  }

  /** The requests pools by shard. */
  public ShardMap requests() {
    return requests;
  }

  /** Statements PostgreSQL cancelled at their timeout, on every shard's requests pool. */
  public StatementTimeouts statementTimeouts() {
    return timeouts;
  }

  @Override
  public void close() {
    shards.forEach(Shards::close);
  }

  private static void close(Shard shard) {
    shard.requests().close();
    shard.background().close();
  }
}
