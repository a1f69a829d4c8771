package io.seqsync.consumers;

import java.util.Set;

/**
 * Thrown by a {@link ConsumerLoop}'s {@code apply} when only some partitions' part of a batch
 * failed, the others' stored (and dealt with by {@code apply} itself): the loop rewinds just these
 * partitions to their stored offsets and pauses them for its retry back-off, while the others go on.
 */
public final class PartitionsFailed extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient Set<Integer> partitions;

  public PartitionsFailed(Set<Integer> partitions, RuntimeException cause) {
    super("partitions " + partitions.stream().sorted().toList() + " failed: " + cause.getMessage(), cause);
    this.partitions = Set.copyOf(partitions);
  }

  /** The failed partitions (of the loop's topic). */
  public Set<Integer> partitions() {
    return partitions;
  }
}
