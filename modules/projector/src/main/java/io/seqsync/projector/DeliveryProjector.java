package io.seqsync.projector;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.seqsync.config.SeqsyncConfig;
import io.seqsync.events.Topic;
import io.seqsync.events.model.DeliveryReport;
import io.seqsync.store.Database;
import io.seqsync.store.DeliveryLedger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Projects the telemetry topic (clients' delivery reports, R17 and R24) into PostgreSQL through
 * {@link DeliveryLedger}: one transaction per polled batch, then the consumer group's offsets.
 * Every row the ledger writes is keyed by the report's natural key and inserted only if absent, so
 * a batch replayed after a crash between the two commits changes nothing: exactly once in effect,
 * without the event projector's offsets in PostgreSQL. A failing batch is retried from the
 * committed offsets after a back-off, forever; records that cannot be decoded are counted and
 * skipped. Thread-safety: {@link #start()} and {@link #close()} from any thread; the consumer is
 * confined to the projector's own thread.
 */
public final class DeliveryProjector implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DeliveryProjector.class);
  private static final Duration POLL_TIMEOUT = Duration.ofMillis(500);
  private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);
  private static final int MAX_POLL_RECORDS = 1_000;

  private final Topic<String, DeliveryReport> topic;
  private final Database database;
  private final DeliveryLedger ledger;
  private final Duration retryBackoff;
  private final KafkaConsumer<String, byte[]> consumer;
  private final Thread thread;
  private final CountDownLatch stopRequested = new CountDownLatch(1);
  private final CompletableFuture<Void> stopped = new CompletableFuture<>();
  private volatile Set<Integer> assignedPartitions = Set.of();
  private final Counter renders;
  private final Counter cases;
  private final Counter unmatched;
  private final Counter undecodable;
  private final Counter failedBatches;

  /**
   * {@code settings}: the event projector's, whose session timeout, back-off and instance id (with
   * {@code -delivery} appended: a group of its own) it shares.
   */
  public DeliveryProjector(String bootstrapServers, Topic<String, DeliveryReport> topic, String groupId,
      Database database, DeliveryLedger ledger, SeqsyncConfig.Projector settings, MeterRegistry registry) {
    this.topic = topic;
    this.database = database;
    this.ledger = ledger;
    this.retryBackoff = settings.retryBackoff();
    this.consumer = new KafkaConsumer<>(consumerProperties(bootstrapServers, groupId, settings),
        new StringDeserializer(), new ByteArrayDeserializer());
    this.thread = new Thread(this::run, "seqsync-delivery-projector");
    this.renders = registry.counter("seqsync.delivery.reports", "kind", "rendered");
    this.cases = registry.counter("seqsync.delivery.reports", "kind", "case");
    this.unmatched = registry.counter("seqsync.delivery.reports", "kind", "unmatched");
    this.undecodable = registry.counter("seqsync.delivery.reports", "kind", "undecodable");
    this.failedBatches = registry.counter("seqsync.delivery.batches.failed");
  }

  private static Properties consumerProperties(String bootstrapServers, String groupId,
      SeqsyncConfig.Projector settings) {
    Properties props = Projector.groupMember(bootstrapServers, groupId,
        settings.instanceId().map(id -> id + "-delivery"), settings.sessionTimeout());
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    // A new group starts from the oldest report the topic keeps: the tables are rebuilt by replay.
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, MAX_POLL_RECORDS);
    return props;
  }

  /** Starts on the projector's own thread; returns at once. */
  public void start() {
    thread.start();
  }

  /** Completes when the projector has stopped: normally after {@link #close()}, exceptionally when it failed for good. */
  public CompletableFuture<Void> stopped() {
    return stopped;
  }

  /** The partitions this instance records now (empty before its first assignment): for health checks. */
  public Set<Integer> assignedPartitions() {
    return assignedPartitions;
  }

  /** Stops after the batch in progress and closes the consumer. */
  @Override
  public void close() {
    stopRequested.countDown();
    if (thread.getState() == Thread.State.NEW) {
      consumer.close(Projector.leavingGroup(CLOSE_TIMEOUT));
      stopped.complete(null);
      return;
    }
    consumer.wakeup();
    try {
      thread.join(CLOSE_TIMEOUT.multipliedBy(3).toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void run() {
    Throwable failure = null;
    try {
      consumer.subscribe(List.of(topic.name()), new ConsumerRebalanceListener() {
        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
          log.info("recording delivery reports from {} partitions {}", topic.name(),
              partitions.stream().map(TopicPartition::partition).sorted().toList());
          publishAssignment(List.of());
        }

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
          publishAssignment(partitions);
        }
      });
      while (stopRequested.getCount() > 0) {
        pollAndRecord();
      }
    } catch (WakeupException | InterruptException e) {
      // close() asked us to stop
    } catch (RuntimeException | Error e) {
      log.error("delivery projector stopped for good", e);
      failure = e;
    } finally {
      try {
        consumer.close(Projector.leavingGroup(CLOSE_TIMEOUT));
      } catch (RuntimeException e) {
        log.warn("closing the delivery projector's consumer failed: {}", e.getMessage());
      }
      assignedPartitions = Set.of();
      if (failure == null) {
        stopped.complete(null);
      } else {
        stopped.completeExceptionally(failure);
      }
    }
  }

  private void publishAssignment(Collection<TopicPartition> leaving) {
    assignedPartitions = Assignments.without(consumer, leaving);
  }

  private void pollAndRecord() {
    ConsumerRecords<String, byte[]> records = ConsumerRecords.empty();
    try {
      records = consumer.poll(POLL_TIMEOUT);
      if (records.isEmpty()) {
        return;
      }
      List<DeliveryReport> reports = decode(records);
      DeliveryLedger.Recorded recorded = reports.isEmpty() ? new DeliveryLedger.Recorded(0, 0, 0)
          : database.jdbi().inTransaction(handle -> ledger.apply(handle, reports));
      consumer.commitSync(records.nextOffsets());
      renders.increment(recorded.renders());
      cases.increment(recorded.cases());
      unmatched.increment(recorded.unmatched());
    } catch (WakeupException | InterruptException e) {
      throw e;
    } catch (RuntimeException e) {
      failedBatches.increment();
      log.error("recording delivery reports failed; retrying from the committed offsets in {} ms",
          retryBackoff.toMillis(), e);
      awaitStop();
      rewind(records.partitions());
    }
  }

  private List<DeliveryReport> decode(ConsumerRecords<String, byte[]> records) {
    List<DeliveryReport> reports = new ArrayList<>(records.count());
    for (ConsumerRecord<String, byte[]> record : records) {
      try {
        reports.add(topic.valueSerde().deserializer().deserialize(record.topic(), record.value()));
      } catch (SerializationException e) {
        undecodable.increment();
        log.warn("skipping {}-{}@{}: {}", record.topic(), record.partition(), record.offset(), e.getMessage());
      }
    }
    return reports;
  }

  // Back to the last committed offsets of the batch's partitions (the oldest kept for one never committed).
  // A partition taken away meanwhile (a failed commit after a rebalance) is its new owner's to replay.
  private void rewind(Set<TopicPartition> partitions) {
    Set<TopicPartition> owned = new HashSet<>(partitions);
    owned.retainAll(consumer.assignment());
    Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(owned);
    for (TopicPartition partition : owned) {
      OffsetAndMetadata offset = committed.get(partition);
      if (offset == null) {
        consumer.seekToBeginning(List.of(partition));
      } else {
        consumer.seek(partition, offset.offset());
      }
    }
  }

  private void awaitStop() {
    try {
      stopRequested.await(retryBackoff.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptException(e);
    }
  }
}
