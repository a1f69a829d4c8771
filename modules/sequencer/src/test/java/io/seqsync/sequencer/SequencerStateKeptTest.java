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
import io.seqsync.events.model.MessageAppended;
import io.seqsync.localstack.ChildJvm;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.Test;

/**
 * A sequencer killed with SIGKILL keeps its state (transactional stores, docs/design.md, "Restart"):
 * restarted on its state directory it restores only what its stores had not committed, not its
 * changelogs from the start, and it still numbers on from where it stopped and answers retried
 * sends with their original seqs.
 */
class SequencerStateKeptTest extends BrokerTest {
  // Streams writes a transactional store's offsets at most every 10,000 changelog records: more than
  // that, so that a commit of the store happened before the kill.
  private static final int SENDS = 30_000;
  private static final int CONVERSATIONS = 50;
  private static final Pattern RESTORED = Pattern.compile("(\\d+) changelog records restored");

  @Test
  void aKilledSequencerRestartsOnItsStateInsteadOfRestoringItsChangelogs() throws Exception {
    // One partition: one task, whose stores pass Streams' checkpoint threshold.
    Map<String, String> environment = new HashMap<>(Map.of("SEQSYNC_KAFKA_BOOTSTRAP_SERVERS",
        kafka.bootstrapServers(), "SEQSYNC_KAFKA_PARTITIONS", "1", "SEQSYNC_DATA_DIR", dir.resolve("kept").toString()));
    environment.put("SEQSYNC_SEQUENCER_APPLICATION_ID", "state-kept-test");
    Topics topics = Topics.from(ConfigLoader.load(environment, Optional.empty()).kafka());
    TopicAdmin.ensure(KafkaConnection.plain(kafka.bootstrapServers()), topics, (short) 1);
    try (ChildJvm sequencer = new ChildJvm(SequencerService.class, environment, dir.resolve("kept.log"),
        "sequencer running")) {
      sequencer.start(Duration.ofMinutes(2));
      produce(topics, 0, SENDS);
      Map<String, Long> seqs = new HashMap<>();
      readCommitted(topics, SENDS, seqs, new HashMap<>());

      sequencer.kill();
      int logBefore = sequencer.log().length();
      sequencer.start(Duration.ofMinutes(2));
      String restart = sequencer.log().substring(logBefore);
      assertThat(restart).as("no task wiped").doesNotContain("did not find checkpoint offsets");
      Matcher restored = RESTORED.matcher(restart);
      assertThat(restored.find()).isTrue();
      // Each send wrote at least two changelog records (its conversation's seq, its dedup entry): a
      // wiped task restores 2 x SENDS or more; a kept one only what its stores had not committed.
      assertThat(Long.parseLong(restored.group(1))).as("records restored after the kill").isLessThan(SENDS);

      // Retries of sends from before the kill, then new sends: the state is all there.
      Map<String, String> retried = produce(topics, SENDS - 100, SENDS + 100);
      Map<String, DuplicateCommand> duplicates = new HashMap<>();
      Map<String, Long> after = new HashMap<>();
      readCommitted(topics, SENDS + 100, after, duplicates);
      assertThat(duplicates).hasSize(100);
      duplicates.values().forEach(reply ->
          assertThat(reply.getSeq()).as("a retry's seq").isEqualTo(seqs.get(retried.get(reply.getCommandId()))));
      for (int i = SENDS; i < SENDS + 100; i++) {
        String conv = conversation(i);
        assertThat(after.get(conv + "/c" + i)).as("seq of a new send after the restart")
            .isEqualTo(i / CONVERSATIONS + 1L);
      }
      sequencer.stop(Duration.ofSeconds(60));
    }
  }

  private static String conversation(int i) {
    return "d:1:" + (2 + i % CONVERSATIONS);
  }

  /** Sends {@code from} until {@code to}; returns each command's id with its conversation and clientMsgId. */
  private static Map<String, String> produce(Topics topics, int from, int to) {
    Map<String, String> sent = new HashMap<>();
    Properties props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    props.put(ProducerConfig.LINGER_MS_CONFIG, 10);
    Commands alice = new Commands(1, "phone");
    try (KafkaProducer<String, Command> producer = new KafkaProducer<>(props,
        topics.commands().keySerde().serializer(), topics.commands().valueSerde().serializer())) {
      for (int i = from; i < to; i++) {
        String conv = conversation(i);
        Command command = alice.sendText(conv, "c" + i, "m" + i);
        producer.send(new ProducerRecord<>(topics.commands().name(), conv, command));
        sent.put(command.getCommandId(), conv + "/c" + i);
      }
      producer.flush();
    }
    return sent;
  }

  // Reads the events and replies topics from the start until {@code appends} messages are there.
  private static void readCommitted(Topics topics, int appends, Map<String, Long> seqs,
      Map<String, DuplicateCommand> duplicates) {
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    List<String> topicNames = List.of(topics.events().name(), topics.replies().name());
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(4);
    try (KafkaConsumer<String, byte[]> consumer =
        new KafkaConsumer<>(props, Serdes.String().deserializer(), Serdes.ByteArray().deserializer())) {
      consumer.assign(new ArrayList<>(consumer.partitionsFor(topicNames.get(0)).stream()
          .map(info -> new org.apache.kafka.common.TopicPartition(info.topic(), info.partition())).toList()));
      List<org.apache.kafka.common.TopicPartition> partitions = new ArrayList<>(consumer.assignment());
      consumer.partitionsFor(topicNames.get(1)).forEach(info ->
          partitions.add(new org.apache.kafka.common.TopicPartition(info.topic(), info.partition())));
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      while (seqs.size() < appends && System.nanoTime() < deadline) {
        for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(500))) {
          if (record.topic().equals(topics.replies().name())) {
            DuplicateCommand reply = EventSerdes.duplicate().decode(record.value());
            duplicates.put(reply.getCommandId(), reply);
          } else if (EventSerdes.event().decode(record.value()).getPayload() instanceof MessageAppended appended) {
            Long before = seqs.put(record.key() + "/" + appended.getMessage().getClientMsgId(), appended.getMessage().getSeq());
            assertThat(before).as("appended twice").isNull();
          }
        }
      }
      assertThat(seqs).as("messages appended").hasSize(appends);
    }
  }
}
