package io.seqsync.ingress.ops;

import io.seqsync.consumers.ProjectionLag;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;

/**
 * How far behind the log ends the two consumers of the pipeline are: the projector (events not yet
 * in PostgreSQL, per partition of the event log, measured by {@link ProjectionLag}) and the
 * sequencer (commands not yet sequenced, per partition of the command topic, from its consumer
 * group's committed offsets, by Kafka's admin API), and how many members the sequencer's group
 * has. Run by {@link OpsMonitor} every few seconds, never per request. Not thread-safe (one caller).
 */
final class LogLag {
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(5);

  /** One partition: its end (the last stable offset), the consumer's position there, and the difference. */
  record Partition(int partition, long logEnd, long position, long lag) {}

  /** The sequencer's consumer group: its state, members and lag per partition of the command topic. */
  record SequencerGroup(String groupId, String state, int members, List<Partition> partitions, long lag) {}

  /** What one look found. */
  record Figures(List<Partition> projector, long projectorLag, SequencerGroup sequencer) {}

  private final Admin admin;
  private final ProjectionLag projection;
  private final String commandTopic;
  private final int partitions;
  private final String sequencerGroup;

  LogLag(Admin admin, ProjectionLag projection, String commandTopic, int partitions, String sequencerGroup) {
    this.admin = admin;
    this.projection = projection;
    this.commandTopic = commandTopic;
    this.partitions = partitions;
    this.sequencerGroup = sequencerGroup;
  }

  Figures look() throws InterruptedException, ExecutionException, TimeoutException {
    List<Partition> projector = projection.measure(CALL_TIMEOUT).partitions().stream()
        .map(lag -> new Partition(lag.partition(), lag.endOffset(), lag.projectedOffset(), lag.lag())).toList();

    Map<Integer, Long> commandEnds = ends(commandTopic, IsolationLevel.READ_UNCOMMITTED);
    Map<Integer, Long> committed = new HashMap<>();
    String state;
    int members;
    try {
      ConsumerGroupDescription group = admin.describeConsumerGroups(List.of(sequencerGroup)).describedGroups()
          .get(sequencerGroup).get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      state = group.groupState().toString();
      members = group.members().size();
      Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(sequencerGroup)
          .partitionsToOffsetAndMetadata().get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      offsets.forEach((partition, offset) -> {
        if (partition.topic().equals(commandTopic) && offset != null) {
          committed.put(partition.partition(), offset.offset());
        }
      });
    } catch (ExecutionException e) {
      if (!(e.getCause() instanceof GroupIdNotFoundException)) {
        throw e;
      }
      state = "unknown";
      members = 0;
    }
    List<Partition> sequencer = lags(commandEnds, committed);
    return new Figures(projector, total(projector), new SequencerGroup(sequencerGroup, state, members, sequencer,
        total(sequencer)));
  }

  private Map<Integer, Long> ends(String topic, IsolationLevel isolation)
      throws InterruptedException, ExecutionException, TimeoutException {
    Map<TopicPartition, OffsetSpec> request = new HashMap<>();
    for (int p = 0; p < partitions; p++) {
      request.put(new TopicPartition(topic, p), OffsetSpec.latest());
    }
    Map<Integer, Long> ends = new HashMap<>();
    admin.listOffsets(request, new ListOffsetsOptions(isolation)).all().get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
        .forEach((partition, info) -> ends.put(partition.partition(), info.offset()));
    return ends;
  }

  // A partition with nothing stored yet is behind by everything in it.
  private static List<Partition> lags(Map<Integer, Long> ends, Map<Integer, Long> positions) {
    List<Partition> result = new ArrayList<>();
    ends.keySet().stream().sorted().forEach(partition -> {
      long end = ends.get(partition);
      long position = Math.min(end, positions.getOrDefault(partition, 0L));
      result.add(new Partition(partition, end, position, end - position));
    });
    return result;
  }

  private static long total(Collection<Partition> partitions) {
    return partitions.stream().mapToLong(Partition::lag).sum();
  }
}
