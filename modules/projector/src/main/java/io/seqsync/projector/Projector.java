package io.seqsync.projector;

import io.micrometer.core.instrument.MeterRegistry;
import io.seqsync.config.KafkaConnection;
import io.seqsync.config.ProjectorSettings;
import io.seqsync.consumers.ConsumerLoop;
import io.seqsync.consumers.PartitionsFailed;
import io.seqsync.consumers.OffsetStore;
import io.seqsync.events.Topics;
import io.seqsync.events.model.RecallApplied;
import io.seqsync.projector.erasure.RecalledDeliveries;
import io.seqsync.projector.postgres.AppliedBatch;
import io.seqsync.projector.postgres.ProjectionOffsets;
import io.seqsync.projector.postgres.ProjectionWriter;
import io.seqsync.store.Database;
import io.seqsync.events.model.Event;
import io.seqsync.store.keys.ContentKeys;
import io.seqsync.store.keys.ContentOpener;
import io.seqsync.store.shard.ShardMap;
import java.util.ArrayList;
import java.util.List;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntPredicate;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
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
 * <p>The consumer's loop (thread, rebalances, rewind, back-off) is a {@link ConsumerLoop}; this
 * class is its batch function and its offset store. Thread-safety: {@link #start()} and
 * {@link #close()} may be called from any thread; the consumer and all other state are confined to
 * the projector's own thread.
 */
public final class Projector implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Projector.class);

  private final String topic;
  private final ShardMap shards;
  private final Announcer announcer;
  private final ProjectorMetrics metrics;
  private final ProjectionWriter writer = new ProjectionWriter();
  private final ConsumerLoop<String, byte[], DecodedBatch> loop;
  // The next offset PostgreSQL holds per assigned partition, as this instance last read or wrote
  // it (absent: none stored): the expected value of the compare-and-set in ProjectionOffsets.
  private final Map<Integer, Long> storedOffsets = new HashMap<>();
  // The batch in progress: the result of each shard whose part committed (TreeMap: in shard order).
  private final Map<Integer, AppliedBatch> committedParts = new TreeMap<>();
  // Partitions whose stored offset (or its absence) this instance has read or written.
  private final Set<Integer> knownOffsets = new HashSet<>();
  private final CommitListeners listeners;
  private final ContentOpener opener;
  private volatile IntPredicate shardUp = shard -> true;
  private boolean runningLogged;

  public Projector(KafkaConnection kafka, Topics topics, Database database, Announcer announcer,
      MeterRegistry registry, ProjectorSettings settings) {
    this(kafka, topics, database, announcer, registry, settings, ContentOpener.NONE);
  }

  /** One PostgreSQL for every partition; sealed texts opened with {@code opener}. */
  public Projector(KafkaConnection kafka, Topics topics, Database database, Announcer announcer,
      MeterRegistry registry, ProjectorSettings settings, ContentOpener opener) {
    this(kafka, topics, ShardMap.single(database.jdbi()), announcer, registry, settings, opener);
  }

  /**
   * Each partition's rows and offsets in its shard of {@code shards} (their background pools); sealed
   * texts opened with {@code opener} before anything reads them (docs/design.md, "Erasure").
   */
  public Projector(KafkaConnection kafka, Topics topics, ShardMap shards, Announcer announcer,
      MeterRegistry registry, ProjectorSettings settings, ContentOpener opener) {
    this.opener = opener;
    this.topic = topics.events().name();
    this.shards = shards;
    this.announcer = announcer;
    this.metrics = new ProjectorMetrics(registry);
    this.listeners = new CommitListeners(metrics);
    KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(consumerProperties(kafka, settings),
        new StringDeserializer(), new ByteArrayDeserializer());
    this.loop = ConsumerLoop.<String, byte[], DecodedBatch>builder("seqsync-projector", "projector", consumer)
        .subscribe(topic)
        .decode(DecodedBatch::decode)
        .apply(this::project)
        .offsets(new InPostgres())
        .retryAfter(settings.retryBackoff(), failure -> {
          metrics.batchFailed();
          if (failure instanceof PartitionsFailed partly) {
            log.warn("projection of {}; retrying them in {} ms, the other partitions go on", partly.getMessage(),
                settings.retryBackoff().toMillis());
          } else {
            log.error("projection failed; retrying from the offsets stored in PostgreSQL in {} ms",
                settings.retryBackoff().toMillis(), failure);
          }
        })
        .onStopped(listeners::close)
        .build();
  }

  /**
   * Adds a listener told about every batch after its commit, on the listeners' own thread, in
   * commit order (see {@link CommitListeners}); add them before {@link #start()}.
   */
  public void addCommitListener(CommitListener listener) {
    listeners.add(listener);
  }

  /**
   * Skips the shards {@code shardUp} says are down (their parts fail at once instead of waiting for
   * a connection), as does any shard whose part fails: the other shards' parts are stored, announced
   * and listened to, and the failed shards' partitions retried after the back-off.
   */
  public Projector skippingShardsDown(IntPredicate shardUp) {
    this.shardUp = shardUp;
    return this;
  }

  /** Starts projecting on the projector's own thread; returns at once. */
  public void start() {
    listeners.start();
    loop.start();
  }

  /** Completes when the projector has stopped: normally after {@link #close()}, exceptionally when it failed for good. */
  public CompletableFuture<Void> stopped() {
    return loop.stopped();
  }

  /** The partitions this instance projects now (empty before its first assignment): for health checks and tests. */
  public Set<Integer> assignedPartitions() {
    return loop.assignedPartitions();
  }

  /**
   * Per assigned partition, the consumer's position once everything before it was committed in
   * PostgreSQL (empty before the first poll). Unlike the stored offsets, which stop after the last
   * record, a position also steps past the transaction markers: it reaches a partition's end
   * offset, so a replay can tell when the projection has caught up with the topic.
   */
  public Map<Integer, Long> projectedPositions() {
    return loop.positions().entrySet().stream()
        .collect(Collectors.toUnmodifiableMap(entry -> entry.getKey().partition(), Map.Entry::getValue));
  }

  /** Stops after the batch in progress (committed or rolled back, never half applied) and closes the consumer. */
  @Override
  public void close() {
    loop.close();
  }

  static Properties consumerProperties(KafkaConnection kafka, ProjectorSettings settings) {
    Properties props = groupMember(kafka, settings.groupId(), settings.instanceId(), settings.sessionTimeout());
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
  public static Properties groupMember(KafkaConnection kafka, String groupId, Optional<String> instanceId,
      Duration sessionTimeout) {
    Properties props = kafka.properties();
    props.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
    instanceId.ifPresent(id -> props.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, id));
    // Session timeout and static membership, as configured here, are settings of the classic protocol.
    props.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "classic");
    props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, (int) sessionTimeout.toMillis());
    // Kafka's default (3 s), or less for a short session: a rebalance waits for the members' next heartbeat.
    props.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, (int) Math.min(3_000, sessionTimeout.toMillis() / 3));
    return props;
  }

  // The batch's rows and offsets in one PostgreSQL transaction; once the loop is done with it, announced and listened to.
  private Runnable project(DecodedBatch batch) {
    long began = System.nanoTime();
    // Every reader below (rows, Redis, pushes) gets plaintext, or the erased placeholder.
    opener.open(batch.events());
    Map<Integer, Long> from = new HashMap<>(storedOffsets);
    from.keySet().retainAll(batch.nextOffsets().keySet());
    AppliedBatch result;
    committedParts.clear();
    try {
      try {
        result = store(batch, from, ProjectionWriter.NewMessages.PLAIN);
      } catch (ProjectionWriter.MessageConflict e) {
        log.warn("{}; storing the batch again, each new message only where nothing conflicts", e.getMessage());
        result = store(batch, from, ProjectionWriter.NewMessages.GUARDED);
      }
    } catch (ShardBatches.PartlyStored partly) {
      // The shards that stored their parts answer their sends now; the loop retries the others'.
      ShardBatches.Part stored = partly.storedPart();
      AppliedBatch committed = ShardBatches.merged(List.copyOf(committedParts.values()));
      announcer.announce(committed.outcomes());
      listeners.committed(new CommittedBatch(stored.events(), committed, stored.nextOffsets()));
      throw new PartitionsFailed(partly.failedPartitions(), partly.failure());
    }
    storedOffsets.putAll(batch.nextOffsets());
    metrics.committed(batch.events().size() + batch.undecodable(), batch, result, System.nanoTime() - began);
    AppliedBatch committed = result;
    return () -> {
      announcer.announce(committed.outcomes());
      listeners.committed(new CommittedBatch(batch.events(), committed, batch.nextOffsets()));
    };
  }

  // The rows and the offsets in one transaction per shard; a shard's part commits or not as a whole.
  private AppliedBatch store(DecodedBatch batch, Map<Integer, Long> from, ProjectionWriter.NewMessages newMessages) {
    if (shards.size() == 1) {
      return store(shards.home(), batch.events(), from, batch.nextOffsets(), newMessages);
    }
    // A shard's part that committed is not stored again when the batch is (GUARDED, after a conflict in another shard).
    Map<Integer, ShardBatches.Part> parts =
        ShardBatches.split(batch.events(), batch.partitions(), batch.nextOffsets(), shards::indexOfPartition);
    RuntimeException failure = null;
    for (Map.Entry<Integer, ShardBatches.Part> entry : parts.entrySet()) {
      int shard = entry.getKey();
      ShardBatches.Part part = entry.getValue();
      if (committedParts.containsKey(shard)) {
        continue;
      }
      try {
        if (!shardUp.test(shard)) {
          throw new IllegalStateException("shard " + shard + "'s primary does not answer");
        }
        Map<Integer, Long> expected = new HashMap<>(from);
        expected.keySet().retainAll(part.nextOffsets().keySet());
        committedParts.put(shard, store(shards.all().get(shard), part.events(), expected, part.nextOffsets(),
            newMessages));
        // Committed: if another shard fails, only its partitions are read again.
        storedOffsets.putAll(part.nextOffsets());
      } catch (ProjectionWriter.MessageConflict e) {
        throw e;
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw new ShardBatches.PartlyStored(parts, committedParts.keySet(), failure);
    }
    return ShardBatches.merged(List.copyOf(committedParts.values()));
  }

  private AppliedBatch store(Jdbi jdbi, List<Event> events, Map<Integer, Long> from, Map<Integer, Long> to,
      ProjectionWriter.NewMessages newMessages) {
    return jdbi.inTransaction(handle -> {
      ProjectionOffsets.advance(handle, topic, from, to);
      AppliedBatch result = writer.apply(handle, events, newMessages);
      eraseRecalled(jdbi, handle, events);
      return result;
    });
  }

  // A recall erases: its message's keys, and the notifier's pending deliveries of it, go before the
  // shard's part commits (the recall is already committed in the log, and erasing again on a retry is
  // harmless). The key store and the notifier's tables are the home shard's.
  private void eraseRecalled(Jdbi shard, Handle handle, List<Event> events) {
    for (Event event : events) {
      if (event.getPayload() instanceof RecallApplied recall) {
        if (shard == shards.home()) {
          ContentKeys.eraseMessage(handle, handle, event.getConvId(), recall.getRecalledSeq());
          RecalledDeliveries.purge(handle, event.getConvId(), recall.getRecalledSeq());
        } else {
          shards.home().useHandle(home -> {
            ContentKeys.eraseMessage(handle, home, event.getConvId(), recall.getRecalledSeq());
            RecalledDeliveries.purge(home, event.getConvId(), recall.getRecalledSeq());
          });
        }
      }
    }
  }

  /** projector_offsets: read on assignment and after a failure; written by {@link #project} itself, in its transaction. */
  private final class InPostgres implements OffsetStore {
    @Override
    public Map<TopicPartition, Long> read(KafkaConsumer<?, ?> consumer, Collection<TopicPartition> partitions) {
      Map<Integer, Long> stored = readEachShard(partitions);
      Map<TopicPartition, Long> where = new HashMap<>();
      for (TopicPartition partition : partitions) {
        knownOffsets.add(partition.partition());
        Long next = stored.get(partition.partition());
        if (next == null) {
          storedOffsets.remove(partition.partition());
        } else {
          storedOffsets.put(partition.partition(), next);
          where.put(partition, next);
        }
      }
      if (!runningLogged) {
        runningLogged = true;
        log.info("projector running: {} from the offsets stored in PostgreSQL, partitions {}",
            topic, partitions.stream().map(TopicPartition::partition).sorted().toList());
      }
      return where;
    }

    // Each shard's stored offsets; a shard that does not answer keeps those this instance last read
    // or wrote there (its compare-and-set guards them), unless it never knew one of the partitions.
    private Map<Integer, Long> readEachShard(Collection<TopicPartition> partitions) {
      if (shards.size() == 1) {
        return shards.storedOffsets(topic);
      }
      Map<Integer, Long> stored = new HashMap<>();
      for (int shard = 0; shard < shards.size(); shard++) {
        try {
          if (!shardUp.test(shard)) {
            throw new IllegalStateException("shard " + shard + "'s primary does not answer");
          }
          stored.putAll(shards.storedOffsetsOf(shard, topic));
        } catch (RuntimeException e) {
          for (TopicPartition partition : partitions) {
            if (shards.indexOfPartition(partition.partition()) != shard) {
              continue;
            }
            if (!knownOffsets.contains(partition.partition())) {
              throw e;
            }
            Long known = storedOffsets.get(partition.partition());
            if (known != null) {
              stored.put(partition.partition(), known);
            }
          }
        }
      }
      return stored;
    }

    @Override
    public void write(KafkaConsumer<?, ?> consumer, Map<TopicPartition, OffsetAndMetadata> next) {}

    @Override
    public void forget(Collection<TopicPartition> partitions) {
      partitions.forEach(partition -> {
        storedOffsets.remove(partition.partition());
        knownOffsets.remove(partition.partition());
      });
    }
  }
}
