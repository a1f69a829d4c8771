package io.seqsync.projector;

import io.micrometer.core.instrument.MeterRegistry;
import io.seqsync.config.SeqsyncConfig;
import io.seqsync.events.Topics;
import io.seqsync.store.Database;
import io.seqsync.store.Outcome;
import io.seqsync.store.ProjectionOffsets;
import io.seqsync.store.ProjectionResult;
import io.seqsync.store.ProjectionWriter;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.FencedInstanceIdException;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Materializes the events topic into PostgreSQL. Each polled batch is applied by
 * {@link ProjectionWriter} and its partitions' next offsets are moved in projector_offsets in ONE
 * transaction; only then are the outcomes announced ({@link Announcer}: store, then announce, R1). The
 * offsets in PostgreSQL are the source of truth (the consumer group's own offsets are never
 * committed): after a crash anywhere the batches that did not commit are replayed and those that
 * did are not, so every event takes effect exactly once. A failing batch is rolled back and
 * retried from the stored offsets after a back-off, forever: nothing is skipped except records
 * that cannot be decoded.
 *
 * <p>Thread-safety: {@link #start()} and {@link #close()} may be called from any thread; the
 * consumer and all other state are confined to the projector's own thread.
 */
public final class Projector implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Projector.class);
  private static final Duration POLL_TIMEOUT = Duration.ofMillis(500);
  private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);

  private final String topic;
  private final Database database;
  private final Announcer announcer;
  private final ProjectorMetrics metrics;
  private final Duration retryBackoff;
  private final ProjectionWriter writer = new ProjectionWriter();
  private final KafkaConsumer<String, byte[]> consumer;
  private final Thread thread;
  private final CountDownLatch stopRequested = new CountDownLatch(1);
  private final CompletableFuture<Void> stopped = new CompletableFuture<>();
  // The next offset PostgreSQL holds per assigned partition, as this instance last read or wrote
  // it (absent: none stored): the expected value of the compare-and-set in ProjectionOffsets.
  private final Map<Integer, Long> storedOffsets = new HashMap<>();
  private volatile Set<Integer> assignedPartitions = Set.of();
  private volatile Map<Integer, Long> projectedPositions = Map.of();
  private final CommitListeners listeners;
  private boolean rewindNeeded;
  private boolean runningLogged;

  public Projector(String bootstrapServers, Topics topics, Database database, Announcer announcer,
      MeterRegistry registry, SeqsyncConfig.Projector settings) {
    this.topic = topics.events().name();
    this.database = database;
    this.announcer = announcer;
    this.metrics = new ProjectorMetrics(registry);
    this.listeners = new CommitListeners(metrics);
    this.retryBackoff = settings.retryBackoff();
    this.consumer = new KafkaConsumer<>(consumerProperties(bootstrapServers, settings),
        new StringDeserializer(), new ByteArrayDeserializer());
    this.thread = new Thread(this::run, "seqsync-projector");
  }

  /**
   * Adds a listener told about every batch after its commit, on the listeners' own thread, in
   * commit order (see {@link CommitListeners}); add them before {@link #start()}.
   */
  public void addCommitListener(CommitListener listener) {
    listeners.add(listener);
  }

  /** Starts projecting on the projector's own thread; returns at once. */
  public void start() {
    listeners.start();
    thread.start();
  }

  /** Completes when the projector has stopped: normally after {@link #close()}, exceptionally when it failed for good. */
  public CompletableFuture<Void> stopped() {
    return stopped;
  }

  /** The partitions this instance projects now (empty before its first assignment): for health checks and tests. */
  public Set<Integer> assignedPartitions() {
    return assignedPartitions;
  }

  /**
   * Per assigned partition, the consumer's position once everything before it was committed in
   * PostgreSQL (empty before the first poll). Unlike the stored offsets, which stop after the last
   * record, a position also steps past the transaction markers: it reaches a partition's end
   * offset, so a replay can tell when the projection has caught up with the topic.
   */
  public Map<Integer, Long> projectedPositions() {
    return projectedPositions;
  }

  /** Stops after the batch in progress (committed or rolled back, never half applied) and closes the consumer. */
  @Override
  public void close() {
    stopRequested.countDown();
    switch (thread.getState()) {
      case NEW -> { // never started
        closeConsumer();
        stopped.complete(null);
      }
      case TERMINATED -> { } // closed already, or failed for good
      default -> {
        consumer.wakeup();
        awaitThread();
      }
    }
  }

  static Properties consumerProperties(String bootstrapServers, SeqsyncConfig.Projector settings) {
    Properties props = groupMember(bootstrapServers, settings.groupId(), settings.instanceId(), settings.sessionTimeout());
    // Only what the sequencer committed: an aborted transaction's events never happened.
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    // Every position comes from projector_offsets; never guess one (poll fails, the loop rewinds).
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
    props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, settings.maxPollRecords());
    return props;
  }

  /**
   * A consumer of group {@code groupId}: static membership with {@code instanceId} when given (a
   * restarted instance gets its partitions back at once), the given session timeout. Shared by the
   * projectors.
   */
  static Properties groupMember(String bootstrapServers, String groupId, Optional<String> instanceId,
      Duration sessionTimeout) {
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
    instanceId.ifPresent(id -> props.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, id));
    // Session timeout and static membership, as configured here, are settings of the classic protocol.
    props.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "classic");
    props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, (int) sessionTimeout.toMillis());
    // Kafka's default (3 s), or less for a short session: a rebalance waits for the members' next heartbeat.
    props.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, (int) Math.min(3_000, sessionTimeout.toMillis() / 3));
    return props;
  }

  /**
   * A static member does not leave its group when it closes, by default: its partitions would wait a
   * session timeout for it. One that stops cleanly leaves, so they move at once; only one that dies
   * (kill -9) is waited for, and comes back to them when restarted (docs/design.md, "Restart").
   */
  static CloseOptions leavingGroup(Duration timeout) {
    return CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP).withTimeout(timeout);
  }

  private void run() {
    Throwable failure = null;
    try {
      consumer.subscribe(List.of(topic), new StoredOffsetsListener());
      while (stopRequested.getCount() > 0) {
        pollAndProject();
      }
    } catch (WakeupException | InterruptException e) {
      // close() asked us to stop
    } catch (RuntimeException | Error e) {
      log.error("projector stopped for good", e);
      failure = e;
    } finally {
      closeConsumer();
      listeners.close();
      if (failure == null) {
        stopped.complete(null);
      } else {
        stopped.completeExceptionally(failure);
      }
    }
  }

  private void pollAndProject() {
    try {
      if (rewindNeeded) {
        seekToStoredOffsets(consumer.assignment());
        rewindNeeded = false;
      }
      ConsumerRecords<String, byte[]> records = consumer.poll(POLL_TIMEOUT);
      if (!records.isEmpty()) {
        project(records);
      }
      projectedPositions = consumer.assignment().stream()
          .collect(Collectors.toUnmodifiableMap(TopicPartition::partition, consumer::position));
    } catch (WakeupException | InterruptException | FencedInstanceIdException e) {
      throw e;
    } catch (RuntimeException e) {
      metrics.batchFailed();
      rewindNeeded = true;
      log.error("projection failed; retrying from the offsets stored in PostgreSQL in {} ms", retryBackoff.toMillis(), e);
      awaitStop(retryBackoff);
    }
  }

  private void project(ConsumerRecords<String, byte[]> records) {
    long began = System.nanoTime();
    DecodedBatch batch = DecodedBatch.decode(records);
    Map<Integer, Long> from = new HashMap<>(storedOffsets);
    from.keySet().retainAll(batch.nextOffsets().keySet());
    ProjectionResult result;
    try {
      result = store(batch, from, ProjectionWriter.NewMessages.PLAIN);
    } catch (ProjectionWriter.MessageConflict e) {
      log.warn("{}; storing the batch again, each new message only where nothing conflicts", e.getMessage());
      result = store(batch, from, ProjectionWriter.NewMessages.GUARDED);
    }
    storedOffsets.putAll(batch.nextOffsets());
    metrics.committed(records.count(), batch, result, System.nanoTime() - began);
    announcer.announce(result.outcomes());
    listeners.committed(new CommittedBatch(batch.events(), result, batch.nextOffsets()));
  }

  // The rows and the offsets in one transaction.
  private ProjectionResult store(DecodedBatch batch, Map<Integer, Long> from, ProjectionWriter.NewMessages newMessages) {
    return database.jdbi().inTransaction(handle -> {
      ProjectionOffsets.advance(handle, topic, from, batch.nextOffsets());
      return writer.apply(handle, batch.events(), newMessages);
    });
  }

  private void seekToStoredOffsets(Collection<TopicPartition> partitions) {
    if (partitions.isEmpty()) {
      return;
    }
    Map<Integer, Long> stored = database.jdbi().withHandle(handle -> ProjectionOffsets.read(handle, topic));
    for (TopicPartition partition : partitions) {
      Long next = stored.get(partition.partition());
      if (next == null) {
        consumer.seekToBeginning(List.of(partition));
        storedOffsets.remove(partition.partition());
      } else {
        consumer.seek(partition, next);
        storedOffsets.put(partition.partition(), next);
      }
    }
    publishAssignment(List.of());
    if (!runningLogged) {
      runningLogged = true;
      log.info("projector running: {} from the offsets stored in PostgreSQL, partitions {}",
          topic, partitions.stream().map(TopicPartition::partition).sorted().toList());
    }
  }

  private void publishAssignment(Collection<TopicPartition> leaving) {
    assignedPartitions = Assignments.without(consumer, leaving);
  }

  private void awaitThread() {
    if (Thread.currentThread() == thread) {
      return;
    }
    try {
      thread.join(CLOSE_TIMEOUT.multipliedBy(3).toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void closeConsumer() {
    try {
      consumer.close(leavingGroup(CLOSE_TIMEOUT));
    } catch (RuntimeException e) {
      log.warn("closing the projector's consumer failed: {}", e.getMessage());
    }
  }

  private void awaitStop(Duration timeout) {
    try {
      stopRequested.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptException(e);
    }
  }

  /** Runs inside poll(), on the projector's thread. A failure here surfaces from poll() and triggers a rewind. */
  private final class StoredOffsetsListener implements ConsumerRebalanceListener {
    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
      seekToStoredOffsets(partitions);
    }

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
      partitions.forEach(partition -> storedOffsets.remove(partition.partition()));
      publishAssignment(partitions);
    }
  }
}
