package io.seqsync.bench.sequencer;

import io.seqsync.events.EventSerdes;
import io.seqsync.events.model.Event;
import io.seqsync.events.model.Message;
import io.seqsync.events.model.MessageAppended;
import java.time.Duration;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads what a run committed, after the timing: a read_committed consumer over the output
 * offsets the run added, so an aborted transaction's records are not counted.
 */
final class OutputCheck {
  private OutputCheck() {}

  /** The records committed in [{@code from}, {@code to}) of each partition, handed to {@code sink}. */
  static long read(String bootstrapServers, Map<TopicPartition, Long> from, Map<TopicPartition, Long> to,
      Consumer<ConsumerRecord<byte[], byte[]>> sink) {
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5_000);
    props.put(ConsumerConfig.CLIENT_ID_CONFIG, "bench-output-check");
    long count = 0;
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      consumer.assign(to.keySet());
      to.keySet().forEach(tp -> consumer.seek(tp, from.getOrDefault(tp, 0L)));
      long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
      while (to.entrySet().stream().anyMatch(end -> consumer.position(end.getKey()) < end.getValue())) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("could not read the outputs back within 5 minutes");
        }
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
          if (record.offset() < to.get(new TopicPartition(record.topic(), record.partition()))) {
            sink.accept(record);
            count++;
          }
        }
      }
    }
    return count;
  }

  /** Counts committed MessageAppended events and checks that every conversation's seqs are 1..n, each once. */
  static final class SequencedEvents implements Consumer<ConsumerRecord<byte[], byte[]>> {
    private final Map<String, BitSet> seqsByConversation = new HashMap<>();
    private long appended;
    private long others;
    private long duplicateSeqs;

    @Override
    public void accept(ConsumerRecord<byte[], byte[]> record) {
      Event event = EventSerdes.event().decode(record.value());
      if (!(event.getPayload() instanceof MessageAppended append)) {
        others++;
        return;
      }
      appended++;
      Message message = append.getMessage();
      BitSet seqs = seqsByConversation.computeIfAbsent(message.getConvId(), id -> new BitSet());
      int seq = Math.toIntExact(message.getSeq());
      if (seqs.get(seq)) {
        duplicateSeqs++;
      }
      seqs.set(seq);
    }

    long appended() {
      return appended;
    }

    /** Empty when all is well, else what is wrong. */
    String problems(long expected, int conversations) {
      StringBuilder problems = new StringBuilder();
      if (appended != expected) {
        problems.append(" appended ").append(appended).append(" != ").append(expected).append(';');
      }
      if (others > 0) {
        problems.append(' ').append(others).append(" events other than MessageAppended;");
      }
      if (duplicateSeqs > 0) {
        problems.append(' ').append(duplicateSeqs).append(" repeated seqs;");
      }
      if (seqsByConversation.size() != conversations) {
        problems.append(" events in ").append(seqsByConversation.size()).append(" conversations, not ").append(conversations).append(';');
      }
      long gapped = seqsByConversation.values().stream()
          .filter(seqs -> seqs.get(0) || seqs.nextClearBit(1) != seqs.length())
          .count();
      if (gapped > 0) {
        problems.append(' ').append(gapped).append(" conversations whose seqs are not 1..n;");
      }
      return problems.toString().trim();
    }
  }
}
