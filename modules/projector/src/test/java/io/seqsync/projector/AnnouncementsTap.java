package io.seqsync.projector;

import io.seqsync.events.Announcements;
import io.seqsync.events.Topics;
import io.seqsync.events.model.StoredOutcome;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** Reads the announcements topic from its start, as the ingress does, on a thread of its own. */
final class AnnouncementsTap implements AutoCloseable {
  private final Queue<StoredOutcome> outcomes = new ConcurrentLinkedQueue<>();
  private final KafkaConsumer<byte[], byte[]> consumer;
  private final Thread thread;
  private volatile boolean closed;

  AnnouncementsTap(String bootstrapServers, Topics topics) {
    consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed", ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new ByteArrayDeserializer(), new ByteArrayDeserializer());
    String topic = topics.announcements().name();
    List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
        .map(info -> new TopicPartition(topic, info.partition())).toList();
    consumer.assign(partitions);
    thread = new Thread(this::poll, "announcements-tap");
    thread.setDaemon(true);
    thread.start();
  }

  /** Everything announced so far, in the order read. */
  Queue<StoredOutcome> outcomes() {
    return outcomes;
  }

  private void poll() {
    try {
      while (!closed) {
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
          outcomes.addAll(Announcements.decode(record.value()));
        }
      }
    } catch (WakeupException e) {
      // closing
    } finally {
      consumer.close(Duration.ofSeconds(5));
    }
  }

  @Override
  public void close() throws InterruptedException {
    closed = true;
    consumer.wakeup();
    thread.join(10_000);
  }
}
