package io.seqsync.projector;

import java.util.Collection;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;

/** The projectors' published assignments (for health checks). */
final class Assignments {
  private Assignments() {}

  /** The consumer's partitions without those being revoked (a revocation callback runs before they leave it). */
  static Set<Integer> without(Consumer<?, ?> consumer, Collection<TopicPartition> leaving) {
    return consumer.assignment().stream().filter(partition -> !leaving.contains(partition))
        .map(TopicPartition::partition).collect(Collectors.toUnmodifiableSet());
  }
}
