package io.seqsync.projector;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.seqsync.config.KafkaConnection;
import io.seqsync.events.Announcements;
import io.seqsync.events.Topic;
import io.seqsync.events.model.Announcement;
import io.seqsync.events.model.StoredOutcome;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes each committed batch's outcomes as one record of the announcements topic, which every
 * ingress instance reads whole. Best effort, like the announcement itself: the leader's
 * acknowledgement is enough, nothing is retried for long, and a failure is counted
 * ({@code seqsync_projector_announce_failures_total}) and logged, never thrown (the rows are
 * committed; a waiting send answers 202). Thread-safe.
 */
public final class AnnouncementPublisher implements Announcer, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(AnnouncementPublisher.class);
  // About 200 KB a record, well within Kafka's 1 MB a request whatever max-poll-records is.
  static final int OUTCOMES_PER_RECORD = 2_000;

  private final KafkaProducer<byte[], byte[]> producer;
  private final String topic;
  private final Counter failures;

  public AnnouncementPublisher(KafkaConnection kafka, Topic<byte[], Announcement> topic, MeterRegistry registry) {
    this.topic = topic.name();
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
    for (int from = 0; from < outcomes.size(); from += OUTCOMES_PER_RECORD) {
      publish(outcomes.subList(from, Math.min(outcomes.size(), from + OUTCOMES_PER_RECORD)));
    }
  }

  private void publish(List<StoredOutcome> outcomes) {
    try {
      producer.send(new ProducerRecord<>(topic, Announcements.encode(outcomes)), (metadata, error) -> {
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
