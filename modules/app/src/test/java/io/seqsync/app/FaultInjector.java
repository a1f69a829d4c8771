package io.seqsync.app;

import io.seqsync.config.CommandLineOptions;
import io.seqsync.config.ConfigLoader;
import io.seqsync.events.Topics;
import io.seqsync.events.model.Event;
import io.seqsync.events.model.Message;
import io.seqsync.events.model.MessageAppended;
import io.seqsync.events.model.MessageType;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Test-only (it lives in the test classes, never in the app's jar): writes to a running app's Kafka
 * what no client can cause, so that the e2e suite sees the ops dashboard and the alert metrics
 * react to real faults through the real code paths.
 *
 * <pre>
 *   java -cp seqsync-app.jar:test-classes io.seqsync.app.FaultInjector --bootstrap HOST:PORT
 *       (--gap-in CONV --seq N | --undecodable-command CONV)
 * </pre>
 *
 * {@code --gap-in}: a {@code MessageAppended} with seq N appended to the event log as the sequencer
 * would write it, for the projector's continuity check (R25) to find the step other than +1.
 * {@code --undecodable-command}: bytes that are no command, on the command topic, for the sequencer
 * to dead-letter. Uses the default topic prefix and partitions.
 */
public final class FaultInjector {
  private static final Topics TOPICS = Topics.from(ConfigLoader.of(Map.of()).kafka());

  private FaultInjector() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> options = CommandLineOptions.parse(args, Set.of("--bootstrap", "--gap-in", "--seq",
        "--undecodable-command"));
    Properties props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, options.get("--bootstrap"));
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
      if (options.containsKey("--gap-in")) {
        String convId = options.get("--gap-in");
        long seq = Long.parseLong(options.get("--seq"));
        long sender = Long.parseLong(convId.split(":")[1]);
        long now = System.currentTimeMillis();
        Message message = Message.newBuilder().setMsgId(ThreadLocalRandom.current().nextLong(1L << 50, 1L << 60))
            .setConvId(convId).setSeq(seq).setSenderId(sender).setSenderDevice("injector")
            .setClientMsgId("injected-" + now).setType(MessageType.TEXT).setContent("a message after a missing one")
            .setCreateTime(now).build();
        Event event = new Event(convId, "injected-" + now, now, new MessageAppended(message));
        byte[] value = TOPICS.events().valueSerde().serializer().serialize(TOPICS.events().name(), event);
        // Keyed by the conversation as the sequencer keys it: the same partition as its other events.
        producer.send(new ProducerRecord<>(TOPICS.events().name(), key(convId), value)).get();
      }
      if (options.containsKey("--undecodable-command")) {
        String convId = options.get("--undecodable-command");
        producer.send(new ProducerRecord<>(TOPICS.commands().name(), key(convId),
            "not a command".getBytes(StandardCharsets.UTF_8))).get();
      }
    }
  }

  private static byte[] key(String convId) {
    return TOPICS.events().keySerde().serializer().serialize(TOPICS.events().name(), convId);
  }
}
