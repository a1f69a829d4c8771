package io.seqsync.bench.http;

import io.seqsync.events.Announcements;
import io.seqsync.events.EventSerdes;
import io.seqsync.events.Topics;
import io.seqsync.events.model.Event;
import io.seqsync.events.model.Message;
import io.seqsync.events.model.MessageAppended;
import io.seqsync.events.model.OutcomeKind;
import io.seqsync.events.model.StoredOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Watches a send from outside the app, to split its latency into stages: a {@code read_committed}
 * consumer of the events topic (when the sequencer's transaction made the event visible; the
 * event's record timestamp is the command's, set when the ingress produced it; the message's
 * createTime is when the sequencer numbered it) and of the projector's announcements (when the row
 * was committed in PostgreSQL and announced). All on this JVM's clock, in epoch milliseconds, keyed
 * by clientMsgId (events) and convId#seq (announcements). Only sends whose clientMsgId starts with
 * {@code s} (the send phases) are kept.
 */
final class SendTracer implements AutoCloseable {
  /** What the events topic says about one message. */
  record Sequenced(String convId, long seq, long producedAt, long numberedAt, long visibleAt) {}

  private final Map<String, Sequenced> events = new ConcurrentHashMap<>();
  private final Map<String, Long> announced = new ConcurrentHashMap<>();
  private final String eventsTopic;
  private final KafkaConsumer<String, byte[]> consumer;
  private final Thread thread;
  private volatile boolean closed;

  SendTracer(String bootstrapServers, Topics topics) {
    eventsTopic = topics.events().name();
    consumer = new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
        ConsumerConfig.CLIENT_ID_CONFIG, "bench-tracer",
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
        // A read_committed fetch waiting on the broker is answered as soon as a commit makes data
        // visible; a short wait would only cost the broker CPU.
        ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100),
        new StringDeserializer(), new ByteArrayDeserializer());
    List<TopicPartition> partitions = new ArrayList<>();
    for (String topic : List.of(eventsTopic, topics.announcements().name())) {
      consumer.partitionsFor(topic, Duration.ofSeconds(30))
          .forEach(info -> partitions.add(new TopicPartition(topic, info.partition())));
    }
    consumer.assign(partitions);
    consumer.seekToEnd(partitions);
    partitions.forEach(partition -> consumer.position(partition, Duration.ofSeconds(30)));
    thread = new Thread(this::poll, "bench-tracer");
    thread.setDaemon(true);
    thread.start();
  }

  private void poll() {
    try {
      while (!closed) {
        var records = consumer.poll(Duration.ofMillis(200));
        long now = System.currentTimeMillis();
        for (ConsumerRecord<String, byte[]> record : records) {
          if (record.topic().equals(eventsTopic)) {
            sequenced(record, now);
          } else {
            announced(record, now);
          }
        }
      }
    } catch (WakeupException e) {
      // closing
    } finally {
      consumer.close(CloseOptions.timeout(Duration.ofSeconds(5)));
    }
  }

  private void sequenced(ConsumerRecord<String, byte[]> record, long now) {
    Event event;
    try {
      event = EventSerdes.event().decode(record.value());
    } catch (RuntimeException e) {
      return;
    }
    if (event.getPayload() instanceof MessageAppended appended) {
      Message message = appended.getMessage();
      if (message.getClientMsgId().startsWith("s")) {
        events.put(message.getClientMsgId(), new Sequenced(message.getConvId(), message.getSeq(), record.timestamp(),
            message.getCreateTime(), now));
      }
    }
  }

  private void announced(ConsumerRecord<String, byte[]> record, long now) {
    for (StoredOutcome outcome : Announcements.decode(record.value())) {
      if (outcome.getKind() == OutcomeKind.APPENDED) {
        announced.putIfAbsent(outcome.getConvId() + "#" + outcome.getSeq(), now);
      }
    }
  }

  Sequenced sequenced(String clientMsgId) {
    return events.get(clientMsgId);
  }

  Long announcedAt(String convId, long seq) {
    return announced.get(convId + "#" + seq);
  }

  /** Forgets what was seen (between phases). */
  void clear() {
    events.clear();
    announced.clear();
  }

  @Override
  public void close() {
    closed = true;
    consumer.wakeup();
    try {
      thread.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
