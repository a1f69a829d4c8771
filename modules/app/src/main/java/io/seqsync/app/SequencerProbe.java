package io.seqsync.app;

import io.seqsync.ingress.health.DependencyState;
import io.seqsync.ingress.health.HealthProbe;
import io.seqsync.sequencer.SequencerService;
import io.seqsync.sequencer.SequencerStatus;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.streams.KafkaStreams;

/**
 * The sequencer's health: this instance's Kafka Streams (its state, stream threads, what it
 * restores) and its consumer group (the application id) as the coordinator sees it. Failed for
 * good once Streams has shut down or failed (an error in a stream thread shuts the whole client
 * down); degraded while it rebalances or restores (sends wait) or the group is not Stable.
 */
final class SequencerProbe implements HealthProbe {
  private final CompletableFuture<SequencerService> sequencer;
  private final String applicationId;
  private final ConsumerGroups groups;

  /** {@code sequencer}: its start, under way while the ingress already answers. */
  SequencerProbe(CompletableFuture<SequencerService> sequencer, String applicationId, ConsumerGroups groups) {
    this.sequencer = sequencer;
    this.applicationId = applicationId;
    this.groups = groups;
  }

  @Override
  public String name() {
    return "sequencer";
  }

  @Override
  public boolean required() {
    return false; // sequenced by another instance meanwhile, or answered late: degraded, not unready
  }

  @Override
  public DependencyState check() {
    if (!sequencer.isDone()) {
      return DependencyState.degraded("starting: Kafka Streams is being created; sends wait until it runs", Map.of());
    }
    if (sequencer.isCompletedExceptionally()) {
      return DependencyState.failed("Kafka Streams could not be started: this instance sequences nothing until it is restarted",
          Map.of());
    }
    SequencerStatus status = sequencer.join().status();
    Map<String, Object> detail = new LinkedHashMap<>();
    detail.put("streams", status.state().name());
    detail.put("threads", status.threads());
    if (status.restoringPartitions() > 0) {
      detail.put("restoring", Map.of("changelogPartitions", status.restoringPartitions(),
          "recordsLeft", status.recordsToRestore()));
    }
    if (status.failedForGood()) {
      detail.put("group", Map.of("id", applicationId));
      return DependencyState.failed("Kafka Streams is " + status.state()
          + ": this instance sequences nothing until it is restarted", detail);
    }
    ConsumerGroups.Reading group = groups.read(applicationId);
    detail.put("group", group.detail());
    if (status.state() != KafkaStreams.State.RUNNING) {
      return DependencyState.degraded(status.restoringPartitions() > 0
          ? "restoring its state from the changelogs: sends wait until it runs"
          : "Kafka Streams is " + status.state() + ": sends wait until it runs", detail);
    }
    return group.problem().map(problem -> DependencyState.degraded(problem, detail))
        .orElseGet(() -> DependencyState.up(detail));
  }
}
