package io.seqsync.store.replica;

import io.seqsync.store.Database;
import java.util.List;

/**
 * One PostgreSQL primary and its streaming replicas, each a pool of its own, named for the health
 * answer and the metrics ({@code replicaNames}, in the order of {@code replicas}). The caller owns
 * and closes the pools.
 */
public record ReplicatedDatabase(Database primary, List<Database> replicas, List<String> replicaNames) {
  public ReplicatedDatabase {
    replicas = List.copyOf(replicas);
    replicaNames = List.copyOf(replicaNames);
    if (replicas.size() != replicaNames.size()) {
      throw new IllegalArgumentException(replicas.size() + " replicas but " + replicaNames.size() + " names");
    }
  }

  /** A primary alone: every read goes to it. */
  public static ReplicatedDatabase primaryOnly(Database primary) {
    return new ReplicatedDatabase(primary, List.of(), List.of());
  }
}
