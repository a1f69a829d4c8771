package io.seqsync.projector;

import io.seqsync.events.model.Event;
import io.seqsync.projector.postgres.AppliedBatch;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.IntUnaryOperator;

/**
 * A polled batch split by shard (each partition's events and next offset go to the shard that
 * holds the partition, in their order), and the shards' results put back together. Stateless.
 */
final class ShardBatches {
  /** One shard's part of a batch. */
  record Part(List<Event> events, Map<Integer, Long> nextOffsets) {}

  private ShardBatches() {}

  /** The parts by shard index, in index order; {@code shardOf} maps a partition to its shard. */
  static Map<Integer, Part> split(List<Event> events, List<Integer> partitions, Map<Integer, Long> nextOffsets,
      IntUnaryOperator shardOf) {
    Map<Integer, Part> parts = new TreeMap<>();
    // A partition whose records were all undecodable still moves its offset: it has a part, maybe empty.
    nextOffsets.forEach((partition, next) -> parts.computeIfAbsent(shardOf.applyAsInt(partition),
        shard -> new Part(new ArrayList<>(), new HashMap<>())).nextOffsets().put(partition, next));
    for (int i = 0; i < events.size(); i++) {
      parts.get(shardOf.applyAsInt(partitions.get(i))).events().add(events.get(i));
    }
    return parts;
  }

  static AppliedBatch merged(List<AppliedBatch> results) {
    if (results.size() == 1) {
      return results.get(0);
    }
    List<io.seqsync.events.model.StoredOutcome> outcomes = new ArrayList<>();
    List<io.seqsync.projector.postgres.ProjectionAnomaly> anomalies = new ArrayList<>();
    results.forEach(result -> {
      outcomes.addAll(result.outcomes());
      anomalies.addAll(result.anomalies());
    });
    return new AppliedBatch(outcomes, anomalies);
  }

  /** Some shards' parts of a batch stored, the others' failed. */
  static final class PartlyStored extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient Part storedPart;
    private final transient Set<Integer> failedPartitions;
    private final transient RuntimeException failure;

    PartlyStored(Map<Integer, Part> parts, Set<Integer> storedShards, RuntimeException failure) {
      super(failure.getMessage(), failure, false, false);
      this.failure = failure;
      Part stored = new Part(new ArrayList<>(), new HashMap<>());
      Set<Integer> failed = new HashSet<>();
      parts.forEach((shard, part) -> {
        if (storedShards.contains(shard)) {
          stored.events().addAll(part.events());
          stored.nextOffsets().putAll(part.nextOffsets());
        } else {
          failed.addAll(part.nextOffsets().keySet());
        }
      });
      this.storedPart = stored;
      this.failedPartitions = Set.copyOf(failed);
    }

    Part storedPart() {
      return storedPart;
    }

    Set<Integer> failedPartitions() {
      return failedPartitions;
    }

    RuntimeException failure() {
      return failure;
    }
  }
}
