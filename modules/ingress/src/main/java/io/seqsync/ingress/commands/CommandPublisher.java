package io.seqsync.ingress.commands;

import io.seqsync.config.KafkaConnection;
import io.seqsync.events.Topic;
import io.seqsync.events.model.Command;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Produces commands to the commands topic (and clients' delivery reports to theirs), keyed by
 * convId, with an idempotent producer and {@code acks=all}: a completed future means the command
 * is durably in Kafka and will be sequenced. A failed one (broker unreachable, timed out) means it
 * may or may not be there; a retry with the same clientMsgId is safe either way (R4).
 * {@link #publishesWithoutBlocking()} tells whether a publish now returns without waiting.
 * Thread-safe; one per process.
 */
public final class CommandPublisher implements AutoCloseable {
  /** How long a send may take in all before it fails (the producer's delivery.timeout.ms). */
  public static final Duration DELIVERY_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration HEALTH_TIMEOUT = Duration.ofSeconds(2);
  private static final long HEALTH_CACHE_NANOS = TimeUnit.SECONDS.toNanos(1);
  // The producer's buffer (buffer.memory, Kafka's default): a send waits when it is full.
  private static final long BUFFER_BYTES = 32L * 1024 * 1024;
  // Unacknowledged command bytes below which a publish cannot find the buffer full: a quarter of it.
  private static final long NON_BLOCKING_UNACKED_BYTES = BUFFER_BYTES / 4;
  // An acknowledgement this recent means the topic's partitions are known: the producer forgets a
  // topic's metadata only after five minutes unused (metadata.max.idle.ms).
  private static final long NON_BLOCKING_ACK_AGE_NANOS = TimeUnit.SECONDS.toNanos(60);

  private final Topic<String, Command> topic;
  private final KafkaProducer<String, byte[]> producer;
  private final Admin admin;
  private volatile boolean closed;
  private volatile CommandSealing sealing = CommandSealing.NONE;
  private volatile Predicate<String> storable = convId -> true;
  private volatile long healthCheckedAt;
  private volatile boolean healthy;
  private final AtomicLong unackedBytes = new AtomicLong();
  private volatile long lastAckedAt;
  private volatile boolean everAcknowledged;

  /** {@code linger}: how long the producer waits for more commands to send with one (http.command-linger). */
  public CommandPublisher(KafkaConnection kafka, Topic<String, Command> commandsTopic, Duration linger) {
    this.topic = commandsTopic;
    this.producer = new KafkaProducer<>(kafka.with(Map.of(
        ProducerConfig.CLIENT_ID_CONFIG, "seqsync-ingress",
        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
        ProducerConfig.ACKS_CONFIG, "all",
        ProducerConfig.LINGER_MS_CONFIG, Math.toIntExact(linger.toMillis()),
        ProducerConfig.BUFFER_MEMORY_CONFIG, BUFFER_BYTES,
        // Bounded waits: a send never holds a request much longer than this.
        ProducerConfig.MAX_BLOCK_MS_CONFIG, 2_000,
        ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000,
        ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) DELIVERY_TIMEOUT.toMillis())),
        commandsTopic.keySerde().serializer(), new ByteArraySerializer());
    this.admin = Admin.create(kafka.with(Map.of(
        AdminClientConfig.CLIENT_ID_CONFIG, "seqsync-ingress-health")));
    this.healthCheckedAt = System.nanoTime() - 2 * HEALTH_CACHE_NANOS;
  }

  /** Seals the texts of every command before it is produced (docs/design.md, "Erasure"). */
  public CommandPublisher sealingWith(CommandSealing sealing) {
    this.sealing = sealing;
    return this;
  }

  /**
   * Refuses the commands of a conversation whose database is down ({@code storable} false for its
   * convId, e.g. its shard's primary not answering): taken into the log, such a command could not be
   * stored, so its send could answer nothing better than 202 for as long as the shard is down.
   */
  public CommandPublisher storingIn(Predicate<String> storable) {
    this.storable = storable;
    return this;
  }

  /**
   * Produces {@code command} keyed by its convId, its texts sealed; completes once the broker
   * acknowledged it. Fails with {@link DatabaseUnavailableException}, producing nothing, when its
   * conversation's database is down.
   */
  public CompletableFuture<RecordMetadata> publish(Command command) {
    if (!storable.test(command.getConvId())) {
      return CompletableFuture.failedFuture(new DatabaseUnavailableException(command.getConvId()));
    }
    CommandSealing by = sealing;
    if (by == CommandSealing.NONE) {
      return publish(topic, command.getConvId(), command);
    }
    return by.seal(command).thenCompose(sealed -> publish(topic, sealed.getConvId(), sealed));
  }

  /**
   * Produces {@code value} to another of seqsync's topics with the same producer (the telemetry's
   * delivery reports); completes once the broker acknowledged it.
   */
  public <V> CompletableFuture<RecordMetadata> publish(Topic<String, V> to, String key, V value) {
    CompletableFuture<RecordMetadata> acked = new CompletableFuture<>();
    long size = 0;
    try {
      byte[] bytes = to.valueSerde().serializer().serialize(to.name(), value);
      size = bytes.length;
      unackedBytes.addAndGet(size);
      long sent = size;
      producer.send(new ProducerRecord<>(to.name(), key, bytes), (metadata, error) -> {
        unackedBytes.addAndGet(-sent);
        if (error != null) {
          acked.completeExceptionally(error);
        } else {
          lastAckedAt = System.nanoTime();
          everAcknowledged = true;
          acked.complete(metadata);
        }
      });
    } catch (RuntimeException e) { // metadata not available in time, producer closed, not serializable
      unackedBytes.addAndGet(-size);
      acked.completeExceptionally(e);
    }
    return acked;
  }

  /**
   * Whether {@link #publish} returns without waiting now: Kafka acknowledged a command within the
   * last minute (the producer knows the topic's partitions) and the commands not yet acknowledged
   * fill less than a quarter of the producer's buffer. When Kafka is slow or gone this turns false
   * and stays so, and a publish may wait up to max.block.ms (2 s) before it fails.
   */
  public boolean publishesWithoutBlocking() {
    return everAcknowledged && System.nanoTime() - lastAckedAt < NON_BLOCKING_ACK_AGE_NANOS
        && unackedBytes.get() < NON_BLOCKING_UNACKED_BYTES;
  }

  /**
   * Whether commands can be produced now: the producer is open and the cluster answers (checked
   * at most once a second, within 2 s; concurrent callers share one check).
   */
  public synchronized boolean isHealthy() {
    if (closed) {
      return false;
    }
    long now = System.nanoTime();
    if (now - healthCheckedAt > HEALTH_CACHE_NANOS) {
      boolean answered;
      try {
        answered = !admin.describeCluster(new DescribeClusterOptions().timeoutMs((int) HEALTH_TIMEOUT.toMillis()))
            .nodes().get(HEALTH_TIMEOUT.toMillis() + 500, TimeUnit.MILLISECONDS).isEmpty();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        answered = false;
      } catch (Exception e) {
        answered = false;
      }
      healthy = answered;
      healthCheckedAt = System.nanoTime();
    }
    return healthy;
  }

  @Override
  public void close() {
    closed = true;
    producer.close(Duration.ofSeconds(10));
    admin.close(Duration.ofSeconds(5));
  }
}
