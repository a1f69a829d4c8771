package io.seqsync.projector;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.seqsync.config.KafkaConnection;
import io.seqsync.config.ProjectorSettings;
import io.seqsync.consumers.ConsumerLoop;
import io.seqsync.consumers.OffsetStore;
import io.seqsync.events.Topic;
import io.seqsync.events.model.DeliveryReport;
import io.seqsync.projector.postgres.DeliveryLedger;
import io.seqsync.store.Database;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
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
 * skipped. The consumer's loop is a {@link ConsumerLoop} storing offsets in the group; the
 * batch functions are {@link #decode} and the ledger's transaction. Thread-safety: {@link #start()}
 * and {@link #close()} from any thread; the consumer is confined to the projector's own thread.
 */
public final class DeliveryProjector implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DeliveryProjector.class);
  private static final int MAX_POLL_RECORDS = 1_000;

  /** The reports of one poll that decode, and how many did not. */
  record Reports(List<DeliveryReport> reports, int undecodable) {
    Reports {
      reports = List.copyOf(reports);
    }
  }

  private final Database database;
  private final DeliveryLedger ledger;
  private final ConsumerLoop<String, byte[], Reports> loop;
  private final Counter renders;
  private final Counter cases;
  private final Counter unmatched;
  private final Counter undecodable;
  private final Counter failedBatches;

  /**
   * {@code settings}: the event projector's, whose session timeout, back-off and instance id (with
   * {@code -delivery} appended: a group of its own) it shares.
   */
  public DeliveryProjector(KafkaConnection kafka, Topic<String, DeliveryReport> topic, String groupId,
      Database database, DeliveryLedger ledger, ProjectorSettings settings, MeterRegistry registry) {
    this.database = database;
    this.ledger = ledger;
    this.renders = registry.counter("seqsync.delivery.reports", "kind", "rendered");
    this.cases = registry.counter("seqsync.delivery.reports", "kind", "case");
    this.unmatched = registry.counter("seqsync.delivery.reports", "kind", "unmatched");
    this.undecodable = registry.counter("seqsync.delivery.reports", "kind", "undecodable");
    this.failedBatches = registry.counter("seqsync.delivery.batches.failed");
    KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(consumerProperties(kafka, groupId, settings),
        new StringDeserializer(), new ByteArrayDeserializer());
    this.loop = ConsumerLoop.<String, byte[], Reports>builder("seqsync-delivery-projector", "delivery projector", consumer)
        .subscribe(topic.name())
        .decode(records -> decode(topic, records))
        .apply(this::record)
        .offsets(OffsetStore.CONSUMER_GROUP)
        .retryAfter(settings.retryBackoff(), failure -> {
          failedBatches.increment();
          log.error("recording delivery reports failed; retrying from the committed offsets in {} ms",
              settings.retryBackoff().toMillis(), failure);
        })
        .onAssigned(partitions -> log.info("recording delivery reports from {} partitions {}", topic.name(),
            partitions.stream().map(TopicPartition::partition).sorted().toList()))
        .build();
  }

  private static Properties consumerProperties(KafkaConnection kafka, String groupId,
      ProjectorSettings settings) {
    Properties props = Projector.groupMember(kafka, groupId,
        settings.instanceId().map(id -> id + "-delivery"), settings.sessionTimeout());
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    // A new group starts from the oldest report the topic keeps: the tables are rebuilt by replay.
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, MAX_POLL_RECORDS);
    return props;
  }

  /** Starts on the projector's own thread; returns at once. */
  public void start() {
    loop.start();
  }

  /** Completes when the projector has stopped: normally after {@link #close()}, exceptionally when it failed for good. */
  public CompletableFuture<Void> stopped() {
    return loop.stopped();
  }

  /** The partitions this instance records now (empty before its first assignment): for health checks. */
  public Set<Integer> assignedPartitions() {
    return loop.assignedPartitions();
  }

  /** Stops after the batch in progress and closes the consumer. */
  @Override
  public void close() {
    loop.close();
  }

  /** The reports of {@code records}; one that does not decode is logged and counted, not retried: it never would. */
  static Reports decode(Topic<String, DeliveryReport> topic, ConsumerRecords<String, byte[]> records) {
    List<DeliveryReport> reports = new ArrayList<>(records.count());
    int undecodable = 0;
    for (ConsumerRecord<String, byte[]> record : records) {
      try {
        if (record.value() == null) {
          // The serde reads null as null, which the ledger would fail on in every retry of the batch.
          throw new SerializationException("a record without a value");
        }
        reports.add(topic.valueSerde().deserializer().deserialize(record.topic(), record.value()));
      } catch (SerializationException e) {
        undecodable++;
        log.warn("skipping {}-{}@{}: {}", record.topic(), record.partition(), record.offset(), e.getMessage());
      }
    }
    return new Reports(reports, undecodable);
  }

  // One transaction; counted once the group's offsets are committed too.
  private Runnable record(Reports batch) {
    DeliveryLedger.Recorded recorded = batch.reports().isEmpty() ? new DeliveryLedger.Recorded(0, 0, 0)
        : database.jdbi().inTransaction(handle -> ledger.apply(handle, batch.reports()));
    return () -> {
      undecodable.increment(batch.undecodable());
      renders.increment(recorded.renders());
      cases.increment(recorded.cases());
      unmatched.increment(recorded.unmatched());
    };
  }
}
