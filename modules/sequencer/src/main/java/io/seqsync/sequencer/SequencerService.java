package io.seqsync.sequencer;

import io.seqsync.config.ConfigLoader;
import io.seqsync.config.InstanceId;
import io.seqsync.config.KafkaConnection;
import io.seqsync.config.SeqsyncConfig;
import io.seqsync.config.SequencerSettings;
import io.seqsync.consumers.TopicAdmin;
import io.seqsync.events.Topics;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Runs the sequencer topology with exactly-once v2 against a Kafka cluster. */
public final class SequencerService implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SequencerService.class);

  private static final int PRODUCER_LINGER_MS = 5;
  private static final int PRODUCER_BATCH_BYTES = 128 * 1024;
  private static final long STREAMS_POLL_MS = 100;
  private static final int PRODUCER_RETRY_BACKOFF_MS = 10;
  private static final int PRODUCER_RETRY_BACKOFF_MAX_MS = 50;

  // Joining the group and restoring the stores; minutes only when a wiped store restores a long changelog.
  private static final Duration START_TIMEOUT = Duration.ofMinutes(2);

  private final KafkaStreams streams;
  private final RestoreProgress restores;
  private final KafkaConnection kafka;
  private final SeqsyncConfig config;
  private final long launched = System.nanoTime();

  private SequencerService(KafkaStreams streams, RestoreProgress restores, KafkaConnection kafka, SeqsyncConfig config) {
    this.streams = streams;
    this.restores = restores;
    this.kafka = kafka;
    this.config = config;
  }

  /** Creates the topics if needed and starts the sequencer; returns once it is running. */
  public static SequencerService start(KafkaConnection kafka, SeqsyncConfig config) {
    ensureTopics(kafka, config);
    SequencerService service = launch(kafka, config);
    try {
      service.awaitRunning(START_TIMEOUT);
    } catch (RuntimeException e) {
      service.close();
      throw e;
    }
    return service;
  }

  /** Creates seqsync's topics where missing: before {@link #launch} and before anything else reads them. */
  public static void ensureTopics(KafkaConnection kafka, SeqsyncConfig config) {
    TopicAdmin.ensure(kafka, Topics.from(config.kafka()), config.kafka().replicationFactor());
  }

  /**
   * Starts the sequencer's stream threads on existing topics ({@link #ensureTopics}) without
   * waiting for them to join the group and restore; {@link #awaitRunning} waits for that. Takes a
   * second or two itself (Streams' clients; its start opens every task's stores).
   */
  public static SequencerService launch(KafkaConnection kafka, SeqsyncConfig config) {
    Topics topics = Topics.from(config.kafka());
    KafkaStreams streams = new KafkaStreams(
        SequencerTopology.build(topics, config.sequencer()), streamsProperties(kafka, config));
    // An exception escaping the processor is a bug or a broken store; continuing would skip or
    // misnumber commands, so this instance stops and its partitions move to a healthy one.
    streams.setUncaughtExceptionHandler(error -> {
      log.error("sequencer stream thread failed; shutting this instance down", error);
      return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
    });
    RestoreProgress restores = new RestoreProgress();
    streams.setGlobalStateRestoreListener(restores);
    SequencerService service = new SequencerService(streams, restores, kafka, config);
    streams.start();
    return service;
  }

  /** The Streams configuration of the sequencer (the benchmark's passthrough reference reuses it). */
  public static Properties streamsProperties(KafkaConnection kafka, SeqsyncConfig config) {
    SequencerSettings settings = config.sequencer();
    Properties props = kafka.properties();
    props.put(StreamsConfig.APPLICATION_ID_CONFIG, settings.applicationId());
    props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    props.put(StreamsConfig.STATE_DIR_CONFIG, config.dataDir().resolve("streams").toString());
    props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, settings.streamThreads());
    props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, settings.commitInterval().toMillis());
    // Streams reads its commit timer only between polls: with its 100 ms poll, a command processed
    // just after a commit waited for the next command, or up to 100 ms, to be committed.
    props.put(StreamsConfig.POLL_MS_CONFIG, Math.min(settings.commitInterval().toMillis(), STREAMS_POLL_MS));
    props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, (int) config.kafka().replicationFactor());
    props.put(StreamsConfig.topicPrefix(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG), (int) config.kafka().minInsyncReplicas());
    // Transactional stores (KIP-892) keep a task's uncommitted writes in a buffer and write them to
    // RocksDB, with the changelog offset they reach, when the Kafka transaction commits. Without
    // them a task's RocksDB may hold writes of an aborted transaction, so under exactly-once Streams
    // wipes every task directory an unclean stop left without a checkpoint file and restores it from
    // the changelog: after a kill -9, a restore that grows with the state (docs/design.md, "Restart").
    props.put(StreamsConfig.TRANSACTIONAL_STATE_STORES_CONFIG, settings.transactionalStores());
    // The early commit on uncommitted bytes bounds the transactional stores' buffers; the sequencer
    // commits every few ms, so they never come near Streams' 64 MB, and left on, the stream thread
    // asks every store for its uncommitted bytes on each loop.
    props.put(StreamsConfig.STATESTORE_UNCOMMITTED_MAX_BYTES_CONFIG, -1L);
    props.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, SequencerRocksDbConfig.class);
    // Larger producer batches than the 16 KB default: at 100 ms commits a partition gets 100+ KB
    // of events per commit, and fewer batches cost the producer and the broker less per record.
    props.put(StreamsConfig.producerPrefix(ProducerConfig.BATCH_SIZE_CONFIG), PRODUCER_BATCH_BYTES);
    // Streams lingers 100 ms, so a transaction's events left only with the commit's flush, which then
    // waited for all of them; sent as they come, the commit waits for the last few ms only. Measured
    // (docs/design.md, "Commit interval"): the sequencer alone 42,450 events/s at 10 ms commits against 26,445 at
    // 20 ms without it; a send's numbered → committed p50 at 5,000/s moved within run-to-run spread.
    props.put(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), PRODUCER_LINGER_MS);
    // With Kafka's 100 ms backoff before a retry, the stream thread stopped for 110-160 ms four
    // times in 20 s at 200 sends/s in a variant that committed more often (docs/design.md, "Commit interval").
    props.put(StreamsConfig.producerPrefix(ProducerConfig.RETRY_BACKOFF_MS_CONFIG), PRODUCER_RETRY_BACKOFF_MS);
    // A transaction's first write to a partition whose previous transaction's markers are not yet
    // written (replicated, on a cluster) is answered CONCURRENT_TRANSACTIONS and retried; with Kafka's
    // exponential backoff up to 1 s, a few in a row held each commit 0.2-1 s on a 3-node cluster.
    props.put(StreamsConfig.producerPrefix(ProducerConfig.RETRY_BACKOFF_MAX_MS_CONFIG), PRODUCER_RETRY_BACKOFF_MAX_MS);
    // Static membership: a restarted instance rejoins under the same name (Streams appends each
    // thread's index) and takes its tasks back without a rebalance, while the session lasts.
    config.instanceId().ifPresent(id -> props.put(StreamsConfig.consumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG), id));
    // A crashed instance's partitions move after this long (the broker's minimum is 6 s).
    props.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG),
        (int) settings.sessionTimeout().toMillis());
    props.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG),
        (int) Math.max(500, settings.sessionTimeout().toMillis() / 4));
    return props;
  }

  public KafkaStreams.State state() {
    return streams.state();
  }

  /** The state, the stream threads and what they restore, for health checks. */
  public SequencerStatus status() {
    return new SequencerStatus(streams.state(), streamThreads(), restores.partitions(), restores.recordsLeft());
  }

  // Streams describes its threads only while running or rebalancing (and throws otherwise).
  private List<SequencerStatus.StreamThread> streamThreads() {
    try {
      return streams.metadataForLocalThreads().stream()
          .map(thread -> new SequencerStatus.StreamThread(thread.threadName(), thread.threadState(),
              thread.activeTasks().stream().map(task -> task.taskId().toString()).sorted().toList()))
          .sorted(Comparator.comparing(SequencerStatus.StreamThread::name)).toList();
    } catch (IllegalStateException | StreamsException notRunning) {
      return List.of();
    }
  }

  /** Returns once the stream threads run (joined, stores restored); throws after {@code timeout} or on a failure. */
  public void awaitRunning(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (streams.state() != KafkaStreams.State.RUNNING) {
      if (streams.state() == KafkaStreams.State.ERROR || streams.state() == KafkaStreams.State.NOT_RUNNING
          || System.nanoTime() > deadline) {
        throw new IllegalStateException("sequencer did not reach RUNNING, state " + streams.state());
      }
      sleep(50);
    }
    log.info("sequencer running: application.id={} on {}, instance {}, in {} ms, {} changelog records restored",
        config.sequencer().applicationId(), kafka, config.instanceId().orElse("(dynamic member)"),
        (System.nanoTime() - launched) / 1_000_000, restores.restored());
  }

  /** {@link #awaitRunning(Duration)} with the start's time-out. */
  public void awaitRunning() {
    awaitRunning(START_TIMEOUT);
  }

  /**
   * Stops and leaves the group: a static member would otherwise keep its partitions for a session
   * timeout after a clean stop. (One killed cannot leave; restarted, it takes them back.)
   */
  @Override
  public void close() {
    streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
        .withTimeout(Duration.ofSeconds(30)));
  }

  /** Runs the sequencer alone, against the Kafka named by {@code SEQSYNC_KAFKA_BOOTSTRAP_SERVERS}. */
  public static void main(String[] args) throws InterruptedException {
    SeqsyncConfig config = InstanceId.applied(ConfigLoader.fromEnvironment());
    String bootstrap = config.kafka().bootstrapServers()
        .orElseThrow(() -> new IllegalArgumentException("set SEQSYNC_KAFKA_BOOTSTRAP_SERVERS"));
    SequencerService service = start(KafkaConnection.configured(config.kafka(), bootstrap), config);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      service.close();
      stopped.countDown();
    }, "sequencer-shutdown"));
    // Streams takes a state listener only before it starts (it threw here, after the start, leaving
    // the process up without this wait): its state is looked at instead.
    while (!stopped.await(1, TimeUnit.SECONDS)) {
      if (service.state() == KafkaStreams.State.ERROR || service.state() == KafkaStreams.State.NOT_RUNNING) {
        break;
      }
    }
    System.exit(service.state() == KafkaStreams.State.ERROR ? 1 : 0);
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
