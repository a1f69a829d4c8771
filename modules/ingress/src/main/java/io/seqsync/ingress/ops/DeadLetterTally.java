package io.seqsync.ingress.ops;

import io.seqsync.config.KafkaConnection;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The dead-letter topic's records counted by reason (the sequencer's {@code seqsync.dlq.reason}
 * header), read {@code read_committed} from the oldest one kept (30 days) by a consumer without a
 * group, a little more at every look; the latest are kept whole for the dashboard. A reason's
 * numbers are replaced by {@code N} ("content exceeds N bytes"), so that the reasons stay few;
 * past {@link #MAX_REASONS} distinct ones the rest count as {@code other}. Not thread-safe: one
 * caller ({@link OpsMonitor}'s thread) polls and reads it.
 */
final class DeadLetterTally implements AutoCloseable {
  static final String REASON_HEADER = "seqsync.dlq.reason";
  static final String SOURCE_HEADER = "seqsync.dlq.source";
  static final int MAX_REASONS = 30;
  static final int LATEST = 50;
  private static final int MAX_REASON_CHARS = 80;
  private static final int MAX_RECORDS_PER_LOOK = 50_000;

  /** One dead letter as the dashboard lists it. */
  record DeadLetter(long offset, long timestamp, String reason, String source, String key) {}

  /** The counts so far; {@code caughtUp} once the whole topic as it was at the first look was read. */
  record Counts(long total, Map<String, Long> byReason, List<DeadLetter> latest, boolean caughtUp) {}

  private final KafkaConsumer<byte[], byte[]> consumer;
  private final TopicPartition partition;
  private final Map<String, Long> byReason = new TreeMap<>();
  private final ArrayDeque<DeadLetter> latest = new ArrayDeque<>();
  private long total;
  private long endAtStart = -1;
  private boolean caughtUp;

  DeadLetterTally(KafkaConnection kafka, String topic) {
    Properties props = kafka.properties();
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"); // an aborted transaction's copies never happened
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5_000);
    this.consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    this.partition = new TopicPartition(topic, 0); // one partition (Topics)
    consumer.assign(List.of(partition));
    consumer.seekToBeginning(List.of(partition));
  }

  /** Reads what was added since the last look (a bounded amount) and returns the counts. */
  Counts look() {
    if (endAtStart < 0) {
      endAtStart = consumer.endOffsets(List.of(partition)).get(partition);
    }
    int read = 0;
    while (read < MAX_RECORDS_PER_LOOK) {
      ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(read == 0 ? 200 : 0));
      if (records.isEmpty()) {
        break;
      }
      records.forEach(this::count);
      read += records.count();
    }
    caughtUp = caughtUp || consumer.position(partition) >= endAtStart;
    return new Counts(total, new LinkedHashMap<>(byReason), List.copyOf(latest), caughtUp);
  }

  private void count(ConsumerRecord<byte[], byte[]> record) {
    String reason = header(record, REASON_HEADER);
    total++;
    byReason.merge(reasonClass(reason, byReason), 1L, Long::sum);
    latest.addFirst(new DeadLetter(record.offset(), record.timestamp(), reason, header(record, SOURCE_HEADER),
        record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8)));
    if (latest.size() > LATEST) {
      latest.removeLast();
    }
  }

  /** The label a reason is counted under: its numbers as N, at most 80 characters, one of at most 30. */
  static String reasonClass(String reason, Map<String, Long> known) {
    String label = reason == null || reason.isBlank() ? "unknown" : reason.strip().replaceAll("[0-9]+", "N");
    label = label.codePoints().filter(c -> c >= 0x20 && c != 0x7f)
        .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
    if (label.codePointCount(0, label.length()) > MAX_REASON_CHARS) {
      label = label.substring(0, label.offsetByCodePoints(0, MAX_REASON_CHARS));
    }
    return known.containsKey(label) || known.size() < MAX_REASONS - 1 ? label : "other";
  }

  private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
    Header header = record.headers().lastHeader(name);
    return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
  }

  @Override
  public void close() {
    consumer.close(CloseOptions.timeout(Duration.ofSeconds(5)));
  }
}
