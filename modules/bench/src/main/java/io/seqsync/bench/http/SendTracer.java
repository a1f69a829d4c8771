package io.seqsync.bench.http;

import io.seqsync.bench.BenchSupport;
import io.seqsync.events.EventSerdes;
import io.seqsync.events.model.Event;
import io.seqsync.events.model.Message;
import io.seqsync.events.model.MessageAppended;
import io.seqsync.store.Announcements;
import io.seqsync.store.Outcome;
import java.net.URI;
import java.time.Duration;
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
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPubSub;

/**
 * Watches a send from outside the app, to split its latency into stages: a {@code read_committed}
 * consumer of the events topic (when the sequencer's transaction made the event visible; the
 * event's record timestamp is the command's, set when the ingress produced it; the message's
 * createTime is when the sequencer numbered it) and a subscriber of the projector's Redis
 * announcements (when the row was committed in PostgreSQL and announced). All on this JVM's
 * clock, in epoch milliseconds, keyed by clientMsgId (events) and convId#seq (announcements).
 * Only sends whose clientMsgId starts with {@code s} (the send phases) are kept.
 */
final class SendTracer implements AutoCloseable {
  /** What the events topic says about one message. */
  record Sequenced(String convId, long seq, long producedAt, long numberedAt, long visibleAt) {}

  private final Map<String, Sequenced> events = new ConcurrentHashMap<>();
  private final Map<String, Long> announced = new ConcurrentHashMap<>();
  private final KafkaConsumer<String, byte[]> consumer;
  private final Thread eventsThread;
  private final JedisPubSub pubSub;
  private final Thread redisThread;
  private volatile boolean closed;

  SendTracer(String bootstrapServers, String eventsTopic, String redisUri) {
    consumer = new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
        ConsumerConfig.CLIENT_ID_CONFIG, "bench-tracer",
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
        // A read_committed fetch waiting on the broker is answered as soon as a commit makes data
        // visible; a short wait would only cost the broker CPU.
        ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100),
        new StringDeserializer(), new ByteArrayDeserializer());
    List<TopicPartition> partitions = consumer.partitionsFor(eventsTopic, Duration.ofSeconds(30)).stream()
        .map(info -> new TopicPartition(eventsTopic, info.partition())).toList();
    consumer.assign(partitions);
    consumer.seekToEnd(partitions);
    partitions.forEach(partition -> consumer.position(partition, Duration.ofSeconds(30)));
    eventsThread = new Thread(this::pollEvents, "bench-tracer-events");
    eventsThread.setDaemon(true);
    eventsThread.start();

    pubSub = new JedisPubSub() {
      @Override
      public void onMessage(String channel, String message) {
        long now = System.currentTimeMillis();
        for (Outcome outcome : Announcements.decode(message)) {
          if (outcome.kind() == Outcome.Kind.APPENDED) {
            announced.putIfAbsent(outcome.convId() + "#" + outcome.seq(), now);
          }
        }
      }
    };
    URI redis = URI.create(redisUri);
    redisThread = new Thread(() -> {
      try (Jedis connection = new Jedis(redis.getHost(), redis.getPort())) {
        connection.subscribe(pubSub, Announcements.CHANNEL);
      } catch (RuntimeException e) {
        if (!closed) {
          System.err.println("  (tracer: Redis subscription ended: " + e + ")");
        }
      }
    }, "bench-tracer-redis");
    redisThread.setDaemon(true);
    redisThread.start();
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!pubSub.isSubscribed() && System.nanoTime() < deadline) {
      BenchSupport.sleep(10);
    }
  }

  private void pollEvents() {
    try {
      while (!closed) {
        var records = consumer.poll(Duration.ofMillis(200));
        long now = System.currentTimeMillis();
        for (ConsumerRecord<String, byte[]> record : records) {
          Event event;
          try {
            event = EventSerdes.event().decode(record.value());
          } catch (RuntimeException e) {
            continue;
          }
          if (event.getPayload() instanceof MessageAppended appended) {
            Message message = appended.getMessage();
            if (message.getClientMsgId().startsWith("s")) {
              events.put(message.getClientMsgId(), new Sequenced(message.getConvId(), message.getSeq(), record.timestamp(),
                  message.getCreateTime(), now));
            }
          }
        }
      }
    } catch (WakeupException e) {
      // closing
    } finally {
      consumer.close(CloseOptions.timeout(Duration.ofSeconds(5)));
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
    if (pubSub.isSubscribed()) {
      pubSub.unsubscribe();
    }
    try {
      eventsThread.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
