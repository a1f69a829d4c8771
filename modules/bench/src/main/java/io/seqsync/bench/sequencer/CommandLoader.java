package io.seqsync.bench.sequencer;

import io.seqsync.events.Commands;
import io.seqsync.events.EventSerdes;
import io.seqsync.events.model.Command;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Writes the benchmark's send commands into a commands topic with a plain idempotent producer,
 * exactly as the ingress would key them (by convId). Everything is encoded before the clock starts,
 * so the measured rate is the producer's and the broker's, not Avro's.
 */
final class CommandLoader {
  static final long USER_ID = 1;
  static final String DEVICE_ID = "bench";
  static final int TEXT_BYTES = 100;

  /** How long the producer took to get {@code records} acknowledged. */
  record Loaded(long records, long bytes, long nanos) {
    double recordsPerSecond() {
      return records * 1e9 / nanos;
    }
  }

  private CommandLoader() {}

  /** The direct conversation {@code d:1:{2 + index}} of user 1 with user {@code 2 + index}. */
  static String conversation(int index) {
    return "d:" + USER_ID + ":" + (USER_ID + 1 + index);
  }

  /**
   * {@code commands} sends spread round-robin over {@code conversations} conversations, each with a
   * distinct clientMsgId and a {@value #TEXT_BYTES}-byte text, written to {@code topic}.
   */
  static Loaded load(String bootstrapServers, String topic, int commands, int conversations) {
    Commands caller = new Commands(USER_ID, DEVICE_ID);
    List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>(commands);
    long bytes = 0;
    for (int i = 0; i < commands; i++) {
      String convId = conversation(i % conversations);
      Command command = caller.sendText(convId, "bench-" + i, text(i, convId));
      byte[] key = convId.getBytes(StandardCharsets.UTF_8);
      byte[] value = EventSerdes.command().encode(command);
      bytes += key.length + value.length;
      records.add(new ProducerRecord<>(topic, key, value));
    }

    Properties props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.CLIENT_ID_CONFIG, "bench-loader");
    AtomicLong acked = new AtomicLong();
    AtomicReference<Exception> failure = new AtomicReference<>();
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
      producer.partitionsFor(topic); // metadata fetched before the clock starts
      long start = System.nanoTime();
      for (ProducerRecord<byte[], byte[]> record : records) {
        producer.send(record, (metadata, error) -> {
          if (error != null) {
            failure.compareAndSet(null, error);
          } else {
            acked.incrementAndGet();
          }
        });
      }
      producer.flush();
      long nanos = System.nanoTime() - start;
      if (failure.get() != null || acked.get() != commands) {
        throw new IllegalStateException("only " + acked.get() + " of " + commands + " commands were written", failure.get());
      }
      return new Loaded(commands, bytes, nanos);
    }
  }

  private static String text(int i, String convId) {
    StringBuilder text = new StringBuilder(TEXT_BYTES).append("benchmark message ").append(i).append(" in ").append(convId).append(' ');
    while (text.length() < TEXT_BYTES) {
      text.append('x');
    }
    return text.toString();
  }
}
