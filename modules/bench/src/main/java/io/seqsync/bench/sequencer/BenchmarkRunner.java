package io.seqsync.bench.sequencer;

import io.seqsync.bench.BenchSupport;
import io.seqsync.bench.Cpu;

import io.seqsync.consumers.TopicAdmin;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;

/**
 * Times one exactly-once Streams application over an already loaded input topic: from the call
 * that starts it until its consumer group's committed offsets reach the end of the input.
 *
 * <p>Why committed offsets: with exactly_once_v2 the input offsets are committed in the same
 * transaction as the outputs (and the changelog writes), and the group coordinator only shows
 * them once that transaction has committed. Offsets at the end of the input therefore mean every
 * output is committed, i.e. visible to read_committed consumers. Watching them costs one small
 * admin request every {@value #POLL_MS} ms, where a read_committed consumer would fetch and
 * decode every output on the same two cores as the measured application. The outputs are
 * counted with a read_committed consumer afterwards, outside the measured time.
 */
final class BenchmarkRunner implements AutoCloseable {
  static final long POLL_MS = 50;
  private static final Duration RUN_TIMEOUT = Duration.ofMinutes(20);
  private static final Duration PROGRESS_EVERY = Duration.ofSeconds(10);

  /** A started application, RUNNING when handed over. */
  interface RunningApp extends AutoCloseable {
    boolean failed();

    /** Whether a Streams application in {@code state} has stopped or is stopping. */
    static boolean failed(KafkaStreams.State state) {
      return state == KafkaStreams.State.ERROR || state == KafkaStreams.State.NOT_RUNNING
          || state == KafkaStreams.State.PENDING_ERROR || state == KafkaStreams.State.PENDING_SHUTDOWN;
    }

    @Override
    void close();
  }

  @FunctionalInterface
  interface Starter {
    /** Starts the application and returns once it is RUNNING. */
    RunningApp start();
  }

  /**
   * One timed run. Nanosecond spans are from the start call. {@code appThreadCpuNanos} is the CPU
   * of this application's threads (stream thread, its producer and consumer, admin); {@code
   * processCpuNanos} is the whole JVM's, the broker's work for it included; {@code
   * otherProcessesCpuNanos} is what the rest of the machine used meanwhile (from /proc/stat; -1
   * where unavailable), which shows when other work competed for the cores. {@code
   * outputEndAtCommitted} is the output's last stable offsets right after the end was seen: reading
   * up to them afterwards checks that the outputs were indeed committed by then.
   */
  record Measured(long records, long toRunningNanos, long toCommittedNanos, long appThreadCpuNanos, long processCpuNanos,
      long otherProcessesCpuNanos, Map<TopicPartition, Long> outputEndAtCommitted) {
    double recordsPerSecond() {
      return records * 1e9 / toCommittedNanos;
    }

    double recordsPerSecondAfterRunning() {
      return records * 1e9 / (toCommittedNanos - toRunningNanos);
    }
  }

  private final String bootstrapServers;
  private final Admin admin;
  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

  BenchmarkRunner(String bootstrapServers) {
    this.bootstrapServers = bootstrapServers;
    this.admin = Admin.create(Map.of(
        AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
        AdminClientConfig.CLIENT_ID_CONFIG, "bench-watcher"));
  }

  String bootstrapServers() {
    return bootstrapServers;
  }

  /** Starts the app, waits until group {@code applicationId} has committed {@code inputEnd}, closes the app. */
  Measured measure(String label, String applicationId, Map<TopicPartition, Long> inputEnd, String outputTopic, Starter starter) {
    long records = inputEnd.values().stream().mapToLong(Long::longValue).sum();
    long cpuAtStart = Cpu.jvmNanos();
    long machineCpuAtStart = Cpu.machineNanos();
    long start = System.nanoTime();
    try (RunningApp app = starter.start()) {
      long running = System.nanoTime();
      long committed = awaitCommitted(label, applicationId, inputEnd, app, start);
      // Sampled before close: the application's threads end with it.
      long appCpu = threadCpuNanos(applicationId);
      long processCpu = Cpu.jvmNanos() - cpuAtStart;
      long machineCpuAtEnd = Cpu.machineNanos();
      long otherCpu = machineCpuAtStart < 0 || machineCpuAtEnd < 0 ? -1 : Math.max(0, machineCpuAtEnd - machineCpuAtStart - processCpu);
      Map<TopicPartition, Long> outputEnd = endOffsets(outputTopic, inputEnd.size());
      return new Measured(records, running - start, committed - start, appCpu, processCpu, otherCpu, outputEnd);
    }
  }

  private long awaitCommitted(String label, String groupId, Map<TopicPartition, Long> inputEnd, RunningApp app, long start) {
    long total = inputEnd.values().stream().mapToLong(Long::longValue).sum();
    long nextReport = start + PROGRESS_EVERY.toNanos();
    while (true) {
      Map<TopicPartition, OffsetAndMetadata> offsets = get(admin.listConsumerGroupOffsets(groupId).partitionsToOffsetAndMetadata());
      long now = System.nanoTime();
      long done = 0;
      boolean complete = true;
      for (Map.Entry<TopicPartition, Long> end : inputEnd.entrySet()) {
        OffsetAndMetadata offset = offsets.get(end.getKey());
        long position = offset == null ? 0 : offset.offset();
        done += Math.min(position, end.getValue());
        complete &= position >= end.getValue();
      }
      if (complete) {
        return now;
      }
      if (app.failed()) {
        throw new IllegalStateException(label + " failed after committing " + done + " of " + total);
      }
      if (now - start > RUN_TIMEOUT.toNanos()) {
        throw new IllegalStateException(label + " committed only " + done + " of " + total + " in " + RUN_TIMEOUT);
      }
      if (now > nextReport) {
        System.err.printf("  ... %s: %,d of %,d committed after %.0f s%n", label, done, total, (now - start) / 1e9);
        nextReport += PROGRESS_EVERY.toNanos();
      }
      BenchSupport.sleep(POLL_MS);
    }
  }

  /** The CPU time of the live threads whose name contains {@code applicationId}. */
  private long threadCpuNanos(String applicationId) {
    long sum = 0;
    for (long id : threads.getAllThreadIds()) {
      ThreadInfo info = threads.getThreadInfo(id);
      if (info != null && info.getThreadName().contains(applicationId)) {
        sum += Math.max(0, threads.getThreadCpuTime(id));
      }
    }
    return sum;
  }

  void createTopic(String name, int partitions) {
    if (!get(admin.listTopics().names()).contains(name)) {
      get(admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1))).all());
    }
    TopicAdmin.awaitLeaders(admin, Map.of(name, partitions));
  }

  /** The read_committed end offset (last stable offset) of every partition of {@code topic}. */
  Map<TopicPartition, Long> endOffsets(String topic, int partitions) {
    Map<TopicPartition, OffsetSpec> request = IntStream.range(0, partitions).boxed()
        .collect(Collectors.toMap(p -> new TopicPartition(topic, p), p -> OffsetSpec.latest()));
    return get(admin.listOffsets(request, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all())
        .entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
  }

  /** Topics whose names start with {@code prefix}, with their partition counts. */
  Map<String, Integer> topicsStartingWith(String prefix) {
    Collection<String> names = get(admin.listTopics().names()).stream().filter(name -> name.startsWith(prefix)).toList();
    return get(admin.describeTopics(names).allTopicNames()).entrySet().stream()
        .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().partitions().size()));
  }

  static long sum(Map<?, Long> offsets) {
    return offsets.values().stream().mapToLong(Long::longValue).sum();
  }

  static Map<TopicPartition, Long> minus(Map<TopicPartition, Long> after, Map<TopicPartition, Long> before) {
    return after.keySet().stream().collect(Collectors.toMap(Function.identity(),
        tp -> after.get(tp) - before.getOrDefault(tp, 0L)));
  }

  private static <T> T get(org.apache.kafka.common.KafkaFuture<T> future) {
    try {
      return future.get(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("admin request failed: " + e, e);
    }
  }

  @Override
  public void close() {
    admin.close(Duration.ofSeconds(10));
  }
}
