package io.seqsync.projector;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.seqsync.config.KafkaConnection;
import io.seqsync.events.Announcements;
import io.seqsync.events.ReplyRoute;
import io.seqsync.events.Topic;
import io.seqsync.events.model.Announcement;
import io.seqsync.events.model.OutcomeKind;
import io.seqsync.events.model.StoredOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes each committed batch's outcomes to the ingress instances waiting for them: the outcomes
 * routed to a partition of the announcements topic (their commandId names it, {@link ReplyRoute},
 * the partition its waiting instance reads) as one record there, those routed nowhere (nobody
 * waits) as one record on any partition. So an instance reads its own outcomes, not every
 * instance's. Best effort, like the announcement itself: the leader's
 * acknowledgement is enough, nothing is retried for long, and a failure is counted
 * ({@code seqsync_projector_announce_failures_total}) and logged, never thrown (the rows are
 * committed; a waiting send answers 202). Thread-safe.
 */
public final class AnnouncementPublisher implements Announcer, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(AnnouncementPublisher.class);
  // About 200 KB a record, well within Kafka's 1 MB a request whatever max-poll-records is.
  static final int OUTCOMES_PER_RECORD = 2_000;
  static final int UNROUTED = -1;

  private final KafkaProducer<byte[], byte[]> producer;
  private final String topic;
  private final int partitions;
  private final boolean appendedEverywhere;
  private final Counter failures;

  public AnnouncementPublisher(KafkaConnection kafka, Topic<byte[], Announcement> topic, MeterRegistry registry) {
    this(kafka, topic, registry, false);
  }

  /**
   * {@code appendedEverywhere}: each conversation's last APPENDED outcome of a batch also to every
   * partition, for the read replicas' routing, which needs every instance to hear every commit
   * (docs/design.md, "Read replicas"); that costs each instance one outcome per conversation and
   * batch.
   */
  public AnnouncementPublisher(KafkaConnection kafka, Topic<byte[], Announcement> topic, MeterRegistry registry,
      boolean appendedEverywhere) {
    this.appendedEverywhere = appendedEverywhere;
    this.topic = topic.name();
    this.partitions = topic.partitions();
    this.failures = Counter.builder("seqsync.projector.announce.failures")
        .description("announcement records of committed batches that could not be published").register(registry);
    this.producer = new KafkaProducer<>(kafka.with(Map.of(
        ProducerConfig.CLIENT_ID_CONFIG, "seqsync-projector-announcements",
        // Sent at once: a send's answer waits for it. Idempotence needs acks=all, which a
        // best-effort notice does not need to wait for.
        ProducerConfig.LINGER_MS_CONFIG, 0,
        ProducerConfig.ACKS_CONFIG, "1",
        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false,
        // An announcement older than a send's reply budget answers nobody.
        ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 10_000,
        ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000,
        ProducerConfig.MAX_BLOCK_MS_CONFIG, 5_000)),
        new ByteArraySerializer(), new ByteArraySerializer());
  }

  @Override
  public void announce(List<StoredOutcome> outcomes) {
    byPartition(outcomes, partitions, appendedEverywhere).forEach((partition, routed) -> {
      for (int from = 0; from < routed.size(); from += OUTCOMES_PER_RECORD) {
        publish(partition, routed.subList(from, Math.min(routed.size(), from + OUTCOMES_PER_RECORD)));
      }
    });
  }

  /**
   * The outcomes by the partition they are routed to, in their order; {@link #UNROUTED} for
   * nobody's. With {@code appendedEverywhere}, each conversation's last APPENDED outcome of the
   * batch also goes to every other partition: the commit watermark the read replicas' routing
   * needs, one per conversation and batch however many messages the batch holds.
   */
  static Map<Integer, List<StoredOutcome>> byPartition(List<StoredOutcome> outcomes, int partitions,
      boolean appendedEverywhere) {
    Map<Integer, List<StoredOutcome>> routed = new LinkedHashMap<>();
    Map<String, StoredOutcome> watermarks = new LinkedHashMap<>();
    for (StoredOutcome outcome : outcomes) {
      int partition = ReplyRoute.partition(outcome.getCommandId()).orElse(UNROUTED);
      routed.computeIfAbsent(partition < partitions ? partition : UNROUTED, key -> new ArrayList<>()).add(outcome);
      if (appendedEverywhere && outcome.getKind() == OutcomeKind.APPENDED) {
        watermarks.merge(outcome.getConvId(), outcome, (kept, later) -> later.getSeq() >= kept.getSeq() ? later : kept);
      }
    }
    for (StoredOutcome watermark : watermarks.values()) {
      int home = ReplyRoute.partition(watermark.getCommandId()).orElse(UNROUTED);
      for (int partition = 0; partition < partitions; partition++) {
        if (partition != home) {
          routed.computeIfAbsent(partition, key -> new ArrayList<>()).add(watermark);
        }
      }
    }
    return routed;
  }

  private void publish(int partition, List<StoredOutcome> outcomes) {
    try {
      byte[] value = Announcements.encode(outcomes);
      ProducerRecord<byte[], byte[]> record = partition == UNROUTED ? new ProducerRecord<>(topic, value)
          : new ProducerRecord<>(topic, partition, null, value);
      producer.send(record, (metadata, error) -> {
        if (error != null) {
          failed(outcomes.size(), error);
        }
      });
    } catch (RuntimeException e) {
      failed(outcomes.size(), e);
    }
  }

  private void failed(int count, Exception error) {
    failures.increment();
    log.warn("stored {} outcomes but could not announce them: {}", count, error.getMessage());
  }

  @Override
  public void close() {
    producer.close(Duration.ofSeconds(5));
  }
}
