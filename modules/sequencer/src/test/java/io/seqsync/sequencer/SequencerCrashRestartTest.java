package io.seqsync.sequencer;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqsync.config.ConfigLoader;
import io.seqsync.config.KafkaConnection;
import io.seqsync.consumers.TopicAdmin;
import io.seqsync.events.Commands;
import io.seqsync.events.EventSerdes;
import io.seqsync.events.Topics;
import io.seqsync.events.model.Command;
import io.seqsync.events.model.DuplicateCommand;
import io.seqsync.events.model.Event;
import io.seqsync.events.model.Message;
import io.seqsync.events.model.MessageAppended;
import io.seqsync.localstack.ChildJvm;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Exactly-once under crashes, on a real broker: the sequencer runs in a child JVM that is killed
 * with SIGKILL several times while commands stream in (fresh sends and retries), and restarted on
 * the same state directory. A read_committed consumer then checks every conversation record by
 * record: seqs exactly 1..N, every clientMsgId once, and every retry answered with the original.
 */
class SequencerCrashRestartTest extends BrokerTest {
  private static final int CONVERSATIONS = 40;
  private static final int SENDS_PER_PAUSE = 40;
  private static final int RETRY_EVERY = 8;
  private static final int KILLS = 4;

  private static final Logger log = LoggerFactory.getLogger(SequencerCrashRestartTest.class);

  @Test
  void everyConversationReadsExactlyOneToNAfterRepeatedKills() throws Exception {
    Map<String, String> environment = Map.of(
        "SEQSYNC_KAFKA_BOOTSTRAP_SERVERS", kafka.bootstrapServers(),
        "SEQSYNC_KAFKA_PARTITIONS", "4",
        "SEQSYNC_DATA_DIR", dir.resolve("sequencer").toString(),
        "SEQSYNC_SEQUENCER_APPLICATION_ID", "crash-restart-test",
        "SEQSYNC_SEQUENCER_SESSION_TIMEOUT", "6s");
    Topics topics = Topics.from(ConfigLoader.load(environment, java.util.Optional.empty()).kafka());
    TopicAdmin.ensure(KafkaConnection.plain(kafka.bootstrapServers()), topics, (short) 1);
    ChildJvm sequencer = new ChildJvm(SequencerService.class, environment, dir.resolve("sequencer.log"), "sequencer running");
    sequencer.start(Duration.ofSeconds(90));

    Sent sent = new Sent();
    AtomicBoolean stop = new AtomicBoolean();
    CompletableFuture<Void> load = CompletableFuture.runAsync(() -> produce(topics, sent, stop));
    Random random = new Random(7);
    for (int kill = 0; kill < KILLS; kill++) {
      Thread.sleep(1_500 + random.nextInt(2_000));
      sequencer.kill();
      sequencer.start(Duration.ofSeconds(90));
    }
    Thread.sleep(1_000);
    stop.set(true);
    load.get(1, TimeUnit.MINUTES);
    assertThat(sent.distinct).as("the load ran through the kills").hasSizeGreaterThan(10_000);
    log.info("sent {} distinct commands and {} retries across {} SIGKILLs", sent.distinct.size(), sent.retries.size(), KILLS);

    Map<String, List<Message>> appended = new HashMap<>();
    Map<String, DuplicateCommand> replies = new HashMap<>();
    readCommitted(topics, sent, appended, replies);
    sequencer.close();

    Map<String, Message> byClientMsgId = new HashMap<>();
    Set<Long> msgIds = new HashSet<>();
    for (Map.Entry<String, List<Message>> conversation : appended.entrySet()) {
      List<Message> messages = conversation.getValue();
      for (int i = 0; i < messages.size(); i++) {
        Message message = messages.get(i);
        assertThat(message.getSeq()).as("seq #%d of %s", i, conversation.getKey()).isEqualTo(i + 1L);
        assertThat(byClientMsgId.put(message.getConvId() + "/" + message.getClientMsgId(), message))
            .as("clientMsgId %s appended twice", message.getClientMsgId()).isNull();
        assertThat(msgIds.add(message.getMsgId())).as("msgId unique").isTrue();
      }
    }
    assertThat(byClientMsgId.keySet()).as("every distinct send appended once, none lost")
        .isEqualTo(sent.distinct);
    assertThat(replies).as("every retry answered once").hasSize(sent.retries.size());
    sent.retries.forEach((commandId, clientKey) -> {
      Message original = byClientMsgId.get(clientKey);
      DuplicateCommand reply = replies.get(commandId);
      assertThat(reply.getMsgId()).isEqualTo(original.getMsgId());
      assertThat(reply.getSeq()).isEqualTo(original.getSeq());
    });
  }

  /** What the load generator sent: the distinct sends, and each retry's commandId with its original. */
  private static final class Sent {
    final Set<String> distinct = new HashSet<>();
    final Map<String, String> retries = new HashMap<>();
  }

  /** Sends steadily (about 2,000 commands/s) until told to stop, so that every kill lands under load. */
  private static void produce(Topics topics, Sent sent, AtomicBoolean stop) {
    Properties props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    Commands alice = new Commands(1, "phone");
    Random random = new Random(11);
    try (KafkaProducer<String, Command> producer = new KafkaProducer<>(props,
        topics.commands().keySerde().serializer(), topics.commands().valueSerde().serializer())) {
      for (int i = 0; !stop.get(); i++) {
        String conv = "d:1:" + (2 + i % CONVERSATIONS);
        producer.send(new ProducerRecord<>(topics.commands().name(), conv, alice.sendText(conv, "c" + i, "m" + i)));
        sent.distinct.add(conv + "/c" + i);
        if (i % RETRY_EVERY == 0 && i > 0) {
          int earlier = i - CONVERSATIONS * random.nextInt(1 + i / CONVERSATIONS);
          String clientMsgId = "c" + earlier;
          Command retry = alice.sendText(conv, clientMsgId, "m" + earlier);
          producer.send(new ProducerRecord<>(topics.commands().name(), conv, retry));
          sent.retries.put(retry.getCommandId(), conv + "/" + clientMsgId);
        }
        if (i % SENDS_PER_PAUSE == 0) {
          sleep(20);
        }
      }
      producer.flush();
    }
  }

  private static void readCommitted(Topics topics, Sent sent, Map<String, List<Message>> appended,
      Map<String, DuplicateCommand> replies) {
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    props.put(ConsumerConfig.GROUP_ID_CONFIG, "crash-restart-verifier");
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    int expectedAppends = sent.distinct.size();
    int seenAppends = 0;
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    try (KafkaConsumer<String, byte[]> consumer =
        new KafkaConsumer<>(props, Serdes.String().deserializer(), Serdes.ByteArray().deserializer())) {
      consumer.subscribe(List.of(topics.events().name(), topics.replies().name()));
      while ((seenAppends < expectedAppends || replies.size() < sent.retries.size()) && System.nanoTime() < deadline) {
        for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(500))) {
          if (record.topic().equals(topics.replies().name())) {
            DuplicateCommand reply = EventSerdes.duplicate().decode(record.value());
            assertThat(replies.put(reply.getCommandId(), reply)).as("reply twice").isNull();
            continue;
          }
          Event event = EventSerdes.event().decode(record.value());
          if (event.getPayload() instanceof MessageAppended message) {
            appended.computeIfAbsent(record.key(), conv -> new ArrayList<>()).add(message.getMessage());
            seenAppends++;
          }
        }
      }
      // Anything beyond the expected count would be a duplicate: give it a moment to show up.
      consumer.poll(Duration.ofSeconds(2)).forEach(record -> {
        if (record.topic().equals(topics.events().name())) {
          Event event = EventSerdes.event().decode(record.value());
          if (event.getPayload() instanceof MessageAppended message) {
            appended.computeIfAbsent(record.key(), conv -> new ArrayList<>()).add(message.getMessage());
          }
        }
      });
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
