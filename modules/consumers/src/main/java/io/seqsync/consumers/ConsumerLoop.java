package io.seqsync.consumers;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.FencedInstanceIdException;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Kafka consumer polled on a thread of its own, written once for seqsync's readers (the event
 * and delivery projectors, the ingress's replies listener). Each poll that returns records is
 * {@code decode}d into a batch, the batch is applied ({@code apply}, which returns what to do once
 * the batch's offsets are stored too), then its next offsets go to the {@link OffsetStore}. Where
 * each partition starts, on assignment and after a failure, comes from the same store, so a batch
 * that failed is read again from the stored offsets: with a retry back-off the loop waits it out
 * (or until closed) and goes on, forever; without one a failure ends the loop. A batch failed in
 * some partitions only ({@link PartitionsFailed}) rewinds and pauses those for the back-off while
 * the others go on. A fenced static member ({@link FencedInstanceIdException}) ends it in any case:
 * another instance has its id.
 *
 * <p>The batch functions are plain functions of their records, testable without a broker.
 * Thread-safety: {@link #start()} and {@link #close()} from any thread; the consumer and the
 * functions run on the loop's thread only.
 *
 * @param <B> a decoded batch
 */
public final class ConsumerLoop<K, V, B> implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ConsumerLoop.class);
  private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);

  private final KafkaConsumer<K, V> consumer;
  private final Placement placement;
  private final Function<ConsumerRecords<K, V>, B> decode;
  private final Function<B, Runnable> apply;
  private final OffsetStore offsets;
  private final Duration pollTimeout;
  private final Optional<Duration> retryBackoff;
  private final Consumer<RuntimeException> onFailure;
  private final Consumer<Collection<TopicPartition>> onAssigned;
  private final Runnable onStopped;
  private final String description;
  private final Thread thread;
  private final CountDownLatch stopRequested = new CountDownLatch(1);
  private final CompletableFuture<Void> stopped = new CompletableFuture<>();
  private volatile Set<Integer> assignedPartitions = Set.of();
  private volatile Map<TopicPartition, Long> positions = Map.of();
  private boolean rewindNeeded;
  // Partitions paused after a PartitionsFailed, until resumeAt (nanoTime).
  private Set<TopicPartition> paused = Set.of();
  private long resumeAt;

  private ConsumerLoop(Builder<K, V, B> builder) {
    this.consumer = Objects.requireNonNull(builder.consumer);
    this.placement = Objects.requireNonNull(builder.placement, "subscribe or assign");
    this.decode = Objects.requireNonNull(builder.decode, "decode");
    this.apply = Objects.requireNonNull(builder.apply, "apply");
    this.offsets = builder.offsets;
    this.pollTimeout = builder.pollTimeout;
    this.retryBackoff = builder.retryBackoff;
    this.onFailure = builder.onFailure;
    this.onAssigned = builder.onAssigned;
    this.onStopped = builder.onStopped;
    this.description = builder.description;
    this.thread = new Thread(this::run, builder.threadName);
    thread.setDaemon(builder.daemon);
  }

  /** A loop of {@code consumer} on a thread named {@code threadName}; {@code description} names it in the log. */
  public static <K, V, B> Builder<K, V, B> builder(String threadName, String description, KafkaConsumer<K, V> consumer) {
    return new Builder<>(threadName, description, consumer);
  }

  /**
   * Subscribes or assigns on the calling thread (a failure here, a missing topic say, closes the
   * consumer and is thrown), then polls on the loop's thread; returns at once.
   */
  public void start() {
    try {
      placement.place(consumer, new Rebalances());
    } catch (RuntimeException e) {
      closeConsumer();
      stopped.complete(null);
      throw e;
    }
    thread.start();
  }

  /** Completes when the loop has stopped: normally after {@link #close()}, exceptionally when it failed for good. */
  public CompletableFuture<Void> stopped() {
    return stopped;
  }

  /** The partition numbers assigned now (empty before the first assignment and after the stop). */
  public Set<Integer> assignedPartitions() {
    return assignedPartitions;
  }

  /**
   * Per assigned partition, the consumer's position once every batch before it was applied and
   * stored (empty before the first poll). A position steps past transaction markers too, so it
   * reaches a partition's end offset: a reader can tell when the loop has caught up.
   */
  public Map<TopicPartition, Long> positions() {
    return positions;
  }

  /** Stops after the batch in progress (applied or failed, never half stored) and closes the consumer. */
  @Override
  public void close() {
    stopRequested.countDown();
    switch (thread.getState()) {
      case NEW -> {
        if (!stopped.isDone()) { // else start() failed and closed it
          closeConsumer();
          stopped.complete(null);
        }
      }
      case TERMINATED -> { } // stopped already, or failed for good
      default -> {
        consumer.wakeup();
        awaitThread();
      }
    }
  }

  private void run() {
    Throwable failure = null;
    try {
      while (stopRequested.getCount() > 0) {
        pollOnce();
      }
    } catch (WakeupException | InterruptException e) {
      if (stopRequested.getCount() > 0) {
        log.error("{} woken up unexpectedly; stopped", description, e);
        failure = e;
      }
    } catch (RuntimeException | Error e) {
      log.error("{} stopped for good", description, e);
      failure = e;
    } finally {
      closeConsumer();
      assignedPartitions = Set.of();
      onStopped.run();
      if (failure == null) {
        stopped.complete(null);
      } else {
        stopped.completeExceptionally(failure);
      }
    }
  }

  private void pollOnce() {
    try {
      if (rewindNeeded) {
        seekToStored(consumer.assignment());
        rewindNeeded = false;
      }
      resumeWhenDue();
      ConsumerRecords<K, V> records = consumer.poll(pollTimeout);
      if (!records.isEmpty()) {
        Runnable afterStored = apply.apply(decode.apply(records));
        offsets.write(consumer, records.nextOffsets());
        afterStored.run();
      }
      positions = consumer.assignment().stream()
          .collect(Collectors.toUnmodifiableMap(partition -> partition, consumer::position));
    } catch (WakeupException | InterruptException | FencedInstanceIdException e) {
      throw e;
    } catch (PartitionsFailed e) {
      if (retryBackoff.isEmpty()) {
        throw e;
      }
      onFailure.accept(e);
      pauseFailed(e.partitions());
    } catch (RuntimeException e) {
      if (retryBackoff.isEmpty()) {
        throw e;
      }
      onFailure.accept(e);
      rewindNeeded = true;
      awaitStop(retryBackoff.get());
    }
  }

  // The failed partitions back to their stored offsets and paused for the back-off; the rest go on.
  // A failure to rewind them rewinds everything, as any other failure does.
  private void pauseFailed(Set<Integer> failed) {
    Set<TopicPartition> partitions = consumer.assignment().stream()
        .filter(partition -> failed.contains(partition.partition())).collect(Collectors.toUnmodifiableSet());
    try {
      seekToStored(partitions);
    } catch (RuntimeException e) {
      onFailure.accept(e);
      rewindNeeded = true;
      awaitStop(retryBackoff.orElseThrow());
      return;
    }
    consumer.pause(partitions);
    paused = Stream.concat(paused.stream(), partitions.stream()).collect(Collectors.toUnmodifiableSet());
    resumeAt = System.nanoTime() + retryBackoff.orElseThrow().toNanos();
  }

  private void resumeWhenDue() {
    if (!paused.isEmpty() && System.nanoTime() - resumeAt >= 0) {
      Set<TopicPartition> assigned = consumer.assignment();
      consumer.resume(paused.stream().filter(assigned::contains).toList());
      paused = Set.of();
    }
  }

  private void seekToStored(Collection<TopicPartition> partitions) {
    if (partitions.isEmpty() || offsets == OffsetStore.NONE) {
      return;
    }
    Map<TopicPartition, Long> stored = offsets.read(consumer, partitions);
    for (TopicPartition partition : partitions) {
      Long next = stored.get(partition);
      if (next == null) {
        consumer.seekToBeginning(List.of(partition));
      } else {
        consumer.seek(partition, next);
      }
    }
  }

  // The consumer's partitions without those leaving (a revocation callback runs before they leave it).
  private void publishAssignment(Collection<TopicPartition> leaving) {
    assignedPartitions = consumer.assignment().stream().filter(partition -> !leaving.contains(partition))
        .map(TopicPartition::partition).collect(Collectors.toUnmodifiableSet());
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

  // A static member (group.instance.id) stays in its group when it closes unless told to leave: its
  // partitions would wait a session timeout for it. One that stops cleanly leaves, so they move at
  // once; only one that dies (kill -9) is waited for, and takes them back when it restarts
  // (docs/design.md, "Restart"). A consumer without a group has nothing to leave.
  private void closeConsumer() {
    try {
      consumer.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
          .withTimeout(CLOSE_TIMEOUT));
    } catch (RuntimeException e) {
      log.warn("closing the consumer of the {} failed: {}", description, e.getMessage());
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

  /** How the consumer gets its partitions: {@link #subscribe} to a group's share, or assigned by hand. */
  @FunctionalInterface
  public interface Placement {
    void place(KafkaConsumer<?, ?> consumer, ConsumerRebalanceListener rebalances);

    /** The group's share of {@code topics}, each assigned partition started from the offset store. */
    static Placement subscribe(List<String> topics) {
      return (consumer, rebalances) -> consumer.subscribe(topics, rebalances);
    }

    /**
     * Every partition of {@code topics}, no group, each at its end once this returns (so the loop
     * sees every record written from then on); a topic that does not exist is refused.
     */
    static Placement everyPartitionAtEnd(List<String> topics, Duration timeout) {
      return (consumer, rebalances) -> {
        List<TopicPartition> partitions = new ArrayList<>();
        for (String topic : topics) {
          List<TopicPartition> ofTopic = consumer.partitionsFor(topic, timeout).stream()
              .map(info -> new TopicPartition(topic, info.partition())).toList();
          if (ofTopic.isEmpty()) {
            throw new IllegalStateException("topic " + topic + " does not exist: create the topics first (TopicAdmin)");
          }
          partitions.addAll(ofTopic);
        }
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        // seekToEnd is lazy: resolve the positions now.
        partitions.forEach(partition -> consumer.position(partition, timeout));
      };
    }
  }

  /** Runs inside poll(), on the loop's thread. A failure here surfaces from poll() and triggers a rewind. */
  private final class Rebalances implements ConsumerRebalanceListener {
    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
      seekToStored(partitions);
      publishAssignment(List.of());
      onAssigned.accept(partitions);
    }

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
      offsets.forget(partitions);
      publishAssignment(partitions);
    }
  }

  /** The loop's parts; {@code subscribe} (or {@code placement}), {@code decode} and {@code apply} are required. */
  public static final class Builder<K, V, B> {
    private final String threadName;
    private final String description;
    private final KafkaConsumer<K, V> consumer;
    private Placement placement;
    private Function<ConsumerRecords<K, V>, B> decode;
    private Function<B, Runnable> apply;
    private OffsetStore offsets = OffsetStore.NONE;
    private Duration pollTimeout = Duration.ofMillis(500);
    private Optional<Duration> retryBackoff = Optional.empty();
    private Consumer<RuntimeException> onFailure = failure -> { };
    private Consumer<Collection<TopicPartition>> onAssigned = partitions -> { };
    private Runnable onStopped = () -> { };
    private boolean daemon;

    private Builder(String threadName, String description, KafkaConsumer<K, V> consumer) {
      this.threadName = threadName;
      this.description = description;
      this.consumer = consumer;
    }

    public Builder<K, V, B> placement(Placement placement) {
      this.placement = placement;
      return this;
    }

    public Builder<K, V, B> subscribe(String topic) {
      return placement(Placement.subscribe(List.of(topic)));
    }

    /** Records to a batch: a plain function (records that do not decode are the batch's to count and skip). */
    public Builder<K, V, B> decode(Function<ConsumerRecords<K, V>, B> decode) {
      this.decode = decode;
      return this;
    }

    /** Applies a batch (throws to fail it) and returns what to run once its offsets are stored too. */
    public Builder<K, V, B> apply(Function<B, Runnable> apply) {
      this.apply = apply;
      return this;
    }

    public Builder<K, V, B> offsets(OffsetStore offsets) {
      this.offsets = offsets;
      return this;
    }

    public Builder<K, V, B> pollTimeout(Duration pollTimeout) {
      this.pollTimeout = pollTimeout;
      return this;
    }

    /** After a failure, told it first ({@code onFailure}: log, count), wait {@code backoff} and read again from the store. */
    public Builder<K, V, B> retryAfter(Duration backoff, Consumer<RuntimeException> onFailure) {
      this.retryBackoff = Optional.of(backoff);
      this.onFailure = onFailure;
      return this;
    }

    /** Told the partitions just assigned (and started from the store), inside poll. */
    public Builder<K, V, B> onAssigned(Consumer<Collection<TopicPartition>> onAssigned) {
      this.onAssigned = onAssigned;
      return this;
    }

    /** Run on the loop's thread once it stopped, the consumer closed, before {@link #stopped()} completes. */
    public Builder<K, V, B> onStopped(Runnable onStopped) {
      this.onStopped = onStopped;
      return this;
    }

    /** A daemon thread: one that must not keep the JVM up. */
    public Builder<K, V, B> daemon() {
      this.daemon = true;
      return this;
    }

    public ConsumerLoop<K, V, B> build() {
      return new ConsumerLoop<>(this);
    }
  }
}
