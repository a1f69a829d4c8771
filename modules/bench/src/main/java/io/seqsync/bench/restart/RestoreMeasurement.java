package io.seqsync.bench.restart;

import io.seqsync.bench.BenchSupport;
import io.seqsync.config.ConfigLoader;
import io.seqsync.config.KafkaConnection;
import io.seqsync.consumers.TopicAdmin;
import io.seqsync.events.Commands;
import io.seqsync.events.Topics;
import io.seqsync.events.model.Command;
import io.seqsync.localstack.ChildJvm;
import io.seqsync.localstack.EmbeddedKafka;
import io.seqsync.sequencer.SequencerService;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * The sequencer's restart against the size of its state: {@code sends} distinct sends (that many
 * dedup entries) sequenced by a sequencer in a child JVM, which is then killed (SIGKILL) and
 * started again on its state directory (not wiped: transactional stores), killed again and started
 * on a wiped state directory (every task restored from its changelog), and stopped cleanly and
 * started. Each start is timed from the process's start to the sequencer's RUNNING.
 */
final class RestoreMeasurement {
  private static final int PARTITIONS = 6;
  private static final int CONVERSATIONS = 10_000;
  private static final String APPLICATION_ID = "bench-restore";
  private static final Pattern RUNNING = Pattern.compile("in (\\d+) ms, (\\d+) changelog records restored");

  private static final String CHILD_LOGGING = """
      <configuration>
        <appender name="OUT" class="ch.qos.logback.core.ConsoleAppender">
          <encoder><pattern>%d{HH:mm:ss.SSS} %-5level [%thread] %logger{30} - %msg%n</pattern></encoder>
        </appender>
        <logger name="org.apache.kafka" level="WARN"/>
        <root level="INFO"><appender-ref ref="OUT"/></root>
      </configuration>
      """;

  private RestoreMeasurement() {}

  static void run(Path dir, long sends, List<Object> rows) throws Exception {
    if (Files.exists(dir)) {
      BenchSupport.deleteTree(dir);
    }
    Files.createDirectories(dir);
    System.err.printf("sequencer restore, %,d dedup entries (%,d conversations, %d partitions)%n", sends, CONVERSATIONS,
        PARTITIONS);
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"), 0)) {
      Map<String, String> env = Map.of("SEQSYNC_KAFKA_BOOTSTRAP_SERVERS", kafka.bootstrapServers(),
          "SEQSYNC_KAFKA_PARTITIONS", Integer.toString(PARTITIONS),
          "SEQSYNC_DATA_DIR", dir.resolve("sequencer").toString(),
          "SEQSYNC_SEQUENCER_APPLICATION_ID", APPLICATION_ID);
      Topics topics = Topics.from(ConfigLoader.load(env, Optional.empty()).kafka());
      TopicAdmin.ensure(KafkaConnection.plain(kafka.bootstrapServers()), topics, (short) 1);
      // The child logs at the app's levels, not the benchmark's (which keeps seqsync's own lines out).
      Path logging = Files.writeString(dir.resolve("logback.xml"), CHILD_LOGGING);
      try (ChildJvm sequencer = new ChildJvm(SequencerService.class,
          List.of("-Xmx1g", "-XX:+UseParallelGC", "-Dlogback.configurationFile=" + logging), List.of(), env,
          dir.resolve("sequencer.log"), "sequencer running")) {
        rows.add(timedStart(sequencer, "first start, empty state", sends));
        long began = System.nanoTime();
        produce(kafka.bootstrapServers(), topics, sends);
        awaitSequenced(kafka.bootstrapServers(), topics, Duration.ofSeconds(300 + sends / 500));
        System.err.printf("  %,d sends produced and sequenced in %.1f s; state directory %,d MB%n", sends,
            RestartBenchmark.seconds(System.nanoTime() - began), megabytes(dir.resolve("sequencer/streams")));
        sequencer.kill();
        rows.add(timedStart(sequencer, "after kill -9, state kept", sends));
        sequencer.kill();
        BenchSupport.deleteTree(dir.resolve("sequencer/streams"));
        rows.add(timedStart(sequencer, "after kill -9, state wiped", sends));
        sequencer.stop(Duration.ofSeconds(60));
        rows.add(timedStart(sequencer, "after a clean stop", sends));
        sequencer.stop(Duration.ofSeconds(60));
      }
    } finally {
      BenchSupport.deleteTree(dir);
    }
  }

  private static Map<String, Object> timedStart(ChildJvm sequencer, String what, long sends) throws Exception {
    long began = System.nanoTime();
    sequencer.start(Duration.ofMinutes(30));
    double wall = RestartBenchmark.seconds(System.nanoTime() - began);
    Matcher running = RUNNING.matcher(sequencer.log());
    Map<String, Object> row = io.seqsync.bench.Result.row("restore", what, "dedupEntries", sends, "processToRunningS", wall);
    while (running.find()) {
      row.put("streamsToRunningS", Long.parseLong(running.group(1)) / 1000.0);
      row.put("changelogRecordsRestored", Long.parseLong(running.group(2)));
    }
    System.err.println("  " + row);
    return row;
  }

  private static void produce(String bootstrap, Topics topics, long sends) {
    Properties props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    props.put(ProducerConfig.LINGER_MS_CONFIG, 20);
    props.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
    props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
    Commands sender = new Commands(1, "bench");
    try (KafkaProducer<String, Command> producer = new KafkaProducer<>(props,
        topics.commands().keySerde().serializer(), topics.commands().valueSerde().serializer())) {
      for (long i = 0; i < sends; i++) {
        String conv = "d:1:" + (1_000 + i % CONVERSATIONS);
        producer.send(new ProducerRecord<>(topics.commands().name(), conv, sender.sendText(conv, "r" + i, "restore bench")));
      }
      producer.flush();
    }
  }

  // Until the sequencer's group has committed the end of every commands partition.
  private static void awaitSequenced(String bootstrap, Topics topics, Duration timeout) throws Exception {
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
      Map<TopicPartition, OffsetSpec> latest = Stream.iterate(0, p -> p + 1).limit(PARTITIONS)
          .collect(Collectors.toMap(p -> new TopicPartition(topics.commands().name(), p), p -> OffsetSpec.latest()));
      Map<TopicPartition, Long> ends = admin.listOffsets(latest).all().get().entrySet().stream()
          .collect(Collectors.toMap(Map.Entry::getKey, entry -> entry.getValue().offset()));
      long deadline = System.nanoTime() + timeout.toNanos();
      while (true) {
        Map<TopicPartition, OffsetAndMetadata> committed =
            admin.listConsumerGroupOffsets(APPLICATION_ID).partitionsToOffsetAndMetadata().get();
        boolean done = ends.entrySet().stream().allMatch(end -> committed.get(end.getKey()) != null
            && committed.get(end.getKey()).offset() >= end.getValue());
        if (done) {
          return;
        }
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("the sequencer did not catch up within " + timeout + ": " + committed);
        }
        BenchSupport.sleep(1_000);
      }
    }
  }

  private static long megabytes(Path root) throws Exception {
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(Files::isRegularFile).mapToLong(file -> file.toFile().length()).sum() / (1024 * 1024);
    }
  }
}
