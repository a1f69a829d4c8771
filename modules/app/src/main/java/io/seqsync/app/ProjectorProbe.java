package io.seqsync.app;

import io.seqsync.ingress.health.DependencyState;
import io.seqsync.ingress.health.HealthProbe;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * A projector's health (the event projector, the delivery projector): this instance's assignment,
 * whether its thread stopped for good (only a restart brings it back: failed), and its consumer
 * group as the coordinator sees it (degraded while rebalancing or without members). An instance
 * without partitions in a Stable group is fine: the others have them all.
 */
final class ProjectorProbe implements HealthProbe {
  private final String name;
  private final String groupId;
  private final Supplier<Set<Integer>> assignedPartitions;
  private final CompletableFuture<Void> stopped;
  private final ConsumerGroups groups;

  ProjectorProbe(String name, String groupId, Supplier<Set<Integer>> assignedPartitions,
      CompletableFuture<Void> stopped, ConsumerGroups groups) {
    this.name = name;
    this.groupId = groupId;
    this.assignedPartitions = assignedPartitions;
    this.stopped = stopped;
    this.groups = groups;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public boolean required() {
    return false; // another instance may project meanwhile; sends answer late
  }

  @Override
  public DependencyState check() {
    Map<String, Object> detail = new LinkedHashMap<>();
    detail.put("assignedPartitions", assignedPartitions.get().stream().sorted().toList());
    if (stopped.isCompletedExceptionally()) {
      detail.put("group", Map.of("id", groupId));
      return DependencyState.failed("the projector stopped for good (" + failure() + "): restart this instance",
          detail);
    }
    if (stopped.isDone()) {
      return DependencyState.down("the projector is stopped", detail);
    }
    ConsumerGroups.Reading group = groups.read(groupId);
    detail.put("group", group.detail());
    return group.problem().map(problem -> DependencyState.degraded(problem, detail))
        .orElseGet(() -> DependencyState.up(detail));
  }

  private String failure() {
    try {
      stopped.join();
      return "no error";
    } catch (CompletionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      return cause.getClass().getSimpleName() + ": " + cause.getMessage();
    }
  }
}
