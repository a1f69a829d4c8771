package io.seqsync.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.seqsync.analytics.TopicScan;
import io.seqsync.config.ConfigLoader;
import io.seqsync.config.KafkaConnection;
import io.seqsync.config.LimitsSettings;
import io.seqsync.config.SeqsyncConfig;
import io.seqsync.events.Topics;
import io.seqsync.events.model.Message;
import io.seqsync.events.model.MessageAppended;
import io.seqsync.testkit.ApiClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The app on a cluster of three Kafka nodes (child JVMs), every topic with three replicas and
 * {@code min.insync.replicas=2}, Streams' internal topics and Kafka's transaction log included.
 * With one node killed (SIGKILL) two replicas remain in sync, so sends are still answered 200 with
 * their seqs; with a second one killed no write can reach two replicas, so sends are refused: 503
 * {@code kafka_unavailable}, a JSON error, never a 200. Once the nodes are back, the client retries
 * what was refused with the same clientMsgIds (API.md: always safe), and the event log, read
 * {@code read_committed}, and PostgreSQL, read through the API, hold every acknowledged and every
 * retried send exactly once, at gap-free seqs 1..N per conversation, the same in both: nothing
 * half-written. (A refused send may have reached the one live replica before its answer; it then
 * commits when the others return, which is why the client's retry, deduplicated, is what counts.)
 */
class BrokerFailureEndToEndTest {
  private static final String SECRET = "broker-failure-test-secret-0123456789";
  private static final List<String> CONVERSATIONS =
      LongStream.rangeClosed(2, 7).mapToObj(peer -> "d:1:" + peer).toList(); // over 3 partitions: all have some
  private static final Duration SETTLED = Duration.ofSeconds(30);

  @TempDir Path dir;

  private record Send(String conv, String clientMsgId, int status, JsonNode body) {}

  @Test
  void oneNodeDownStillAcknowledgesTwoDownRefusesAndNothingIsHalfWritten() throws Exception {
    ExecutorService clients = Executors.newFixedThreadPool(CONVERSATIONS.size());
    try (LocalKafkaCluster kafka = LocalKafkaCluster.start(dir.resolve("cluster"), 3)) {
      Map<String, String> settings = new HashMap<>(Map.of(
          "data-dir", dir.resolve("app").toString(),
          "kafka.bootstrap-servers", kafka.bootstrapServers(),
          "kafka.replication-factor", "3", // min.insync.replicas: 2, the default majority of 3
          "kafka.partitions", "3",
          "postgres.embedded-port", "0", "redis.embedded-port", "0", "http.port", "0",
          "http.reply-budget", "10s", "sequencer.session-timeout", "6s", "auth.secret", SECRET));
      // Sends in a loop from one device: far above a person's limits.
      settings.putAll(LimitsSettings.raisedTo(EndToEnd.RAISED_LIMITS));
      SeqsyncConfig config = ConfigLoader.of(settings);
      assertThat(config.kafka().minInsyncReplicas()).isEqualTo((short) 2);
      try (SeqsyncApp app = SeqsyncApp.start(config); Admin admin = Admin.create(Map.of("bootstrap.servers",
          kafka.bootstrapServers()))) {
        ApiClient alice = EndToEnd.client(app, 1, "phone");
        Topics topics = Topics.from(config.kafka());
        assertReplicated(admin, config);
        List<Send> acknowledged = new ArrayList<>();

        for (String conv : CONVERSATIONS) {
          acknowledged.add(ok(send(alice, conv, UUID.randomUUID().toString())));
        }

        long phase = System.nanoTime();
        kafka.kill(3);
        awaitLeadersWithout(admin, 3);
        phase = report("node 3 killed; its partitions led by nodes 1 and 2", phase);
        for (int round = 0; round < 2; round++) {
          for (String conv : CONVERSATIONS) {
            acknowledged.add(ok(send(alice, conv, UUID.randomUUID().toString())));
          }
        }

        phase = report("sends with node 3 down, all answered 200", phase);
        kafka.kill(2);
        List<CompletableFuture<Send>> attempts = CONVERSATIONS.stream()
            .map(conv -> CompletableFuture.supplyAsync(() -> send(alice, conv, UUID.randomUUID().toString()), clients))
            .toList();
        List<Send> refused = attempts.stream().map(CompletableFuture::join).toList();
        for (Send send : refused) {
          assertThat(send.status()).as("a send with one node of three: %s", send.body()).isEqualTo(503);
          assertThat(send.body().get("error").get("code").asText()).isEqualTo("kafka_unavailable");
        }

        phase = report("node 2 killed too: sends refused 503", phase);
        kafka.startNodes(List.of(2, 3));
        phase = report("nodes 2 and 3 back", phase);
        List<Send> retried = new ArrayList<>();
        for (Send send : refused) {
          retried.add(retryUntilStored(alice, send));
        }
        for (String conv : CONVERSATIONS) {
          acknowledged.add(ok(send(alice, conv, UUID.randomUUID().toString())));
        }

        report("refused sends retried and stored (" + retried.stream()
            .filter(send -> send.body().get("duplicate").asBoolean()).count() + " of " + retried.size()
            + " had reached the log before their 503)", phase);
        Map<String, List<Message>> log = eventLog(kafka.bootstrapServers(), topics);
        List<Send> expected = new ArrayList<>(acknowledged);
        expected.addAll(retried);
        for (String conv : CONVERSATIONS) {
          List<Message> messages = log.getOrDefault(conv, List.of());
          List<Long> gapFree = LongStream.rangeClosed(1, messages.size()).boxed().toList();
          assertThat(messages).extracting(Message::getSeq).as("%s in the event log", conv).isEqualTo(gapFree);
          Map<String, Long> seqByClientMsgId = messages.stream()
              .collect(Collectors.toMap(Message::getClientMsgId, Message::getSeq)); // throws on a duplicate
          Set<String> sentHere = expected.stream().filter(send -> send.conv().equals(conv))
              .map(Send::clientMsgId).collect(Collectors.toSet());
          assertThat(seqByClientMsgId.keySet()).as("%s: each acknowledged or retried send, once", conv)
              .isEqualTo(sentHere);
          for (Send send : expected) {
            if (send.conv().equals(conv)) {
              assertThat(send.body().get("message").get("seq").asLong()).as("the seq answered for %s", send)
                  .isEqualTo(seqByClientMsgId.get(send.clientMsgId()));
            }
          }
          JsonNode page = EndToEnd.ok(alice.get("/v1/conversations/" + conv + "/messages?after=0&limit=50"));
          List<String> stored = new ArrayList<>();
          page.get("messages").forEach(message -> stored.add(message.get("clientMsgId").asText()));
          assertThat(EndToEnd.seqs(page)).as("%s in PostgreSQL", conv).isEqualTo(gapFree);
          assertThat(stored).as("%s: PostgreSQL holds what the log holds", conv)
              .isEqualTo(messages.stream().map(Message::getClientMsgId).toList());
        }
      }
    } finally {
      clients.shutdownNow();
    }
  }

  // What each phase took, for whoever reads the test's output on a slow machine.
  private static long report(String what, long since) {
    System.out.printf("BrokerFailureEndToEndTest: %s, %d ms%n", what, (System.nanoTime() - since) / 1_000_000);
    return System.nanoTime();
  }

  private static Send send(ApiClient client, String conv, String clientMsgId) {
    ApiClient.Response response = client.post("/v1/conversations/" + conv + "/messages",
        "{\"clientMsgId\":\"" + clientMsgId + "\",\"type\":\"text\",\"content\":\"" + clientMsgId + "\"}");
    return new Send(conv, clientMsgId, response.status(), response.body());
  }

  private static Send ok(Send send) {
    assertThat(send.status()).as("send to %s: %s", send.conv(), send.body()).isEqualTo(200);
    assertThat(send.body().get("message").get("seq").asLong()).isPositive();
    return send;
  }

  // The same clientMsgId until it is answered 200: a 503 while the cluster settles, a 202 while the
  // sequencer catches up. The first 200 is the duplicate's answer when the refused send had reached
  // a replica after all, or a new message's.
  private static Send retryUntilStored(ApiClient client, Send refused) {
    long deadline = System.nanoTime() + SETTLED.toNanos() * 4; // the sequencer may restore its tasks first
    Send attempt;
    do {
      attempt = send(client, refused.conv(), refused.clientMsgId());
      if (attempt.status() == 200) {
        return attempt;
      }
      assertThat(attempt.status()).as("a retry: %s", attempt.body()).isIn(202, 503);
      EndToEnd.sleep(500);
    } while (System.nanoTime() < deadline);
    throw new AssertionError("not stored after the nodes returned: " + attempt);
  }

  private static void assertReplicated(Admin admin, SeqsyncConfig config) throws Exception {
    Set<String> names = admin.listTopics(new org.apache.kafka.clients.admin.ListTopicsOptions().listInternal(true))
        .names().get(30, TimeUnit.SECONDS);
    Map<String, TopicDescription> described = admin.describeTopics(names).allTopicNames().get(30, TimeUnit.SECONDS);
    assertThat(described.keySet()).as("seqsync's topics, a Streams changelog, Kafka's transaction log")
        .contains(config.kafka().topicPrefix() + "commands", config.kafka().topicPrefix() + "events",
            "__transaction_state", "__consumer_offsets")
        .anyMatch(name -> name.endsWith("-changelog"));
    for (TopicDescription topic : described.values()) {
      for (TopicPartitionInfo partition : topic.partitions()) {
        assertThat(partition.replicas()).as("replicas of %s-%d", topic.name(), partition.partition()).hasSize(3);
      }
    }
    var configs = admin.describeConfigs(names.stream()
        .map(name -> new org.apache.kafka.common.config.ConfigResource(
            org.apache.kafka.common.config.ConfigResource.Type.TOPIC, name)).toList())
        .all().get(30, TimeUnit.SECONDS);
    configs.forEach((resource, topicConfig) -> assertThat(topicConfig.get("min.insync.replicas").value())
        .as("min.insync.replicas of %s", resource.name()).isEqualTo("2"));
  }

  // Until no partition of any topic is led by the dead node: the controller fenced it and elected
  // leaders among the other two (the node's session timeout, 5 s, KafkaNodeConfig).
  private static void awaitLeadersWithout(Admin admin, int deadNode) throws Exception {
    long deadline = System.nanoTime() + SETTLED.toNanos();
    while (true) {
      Set<String> names = admin.listTopics(new org.apache.kafka.clients.admin.ListTopicsOptions().listInternal(true))
          .names().get(30, TimeUnit.SECONDS);
      boolean moved = admin.describeTopics(names).allTopicNames().get(30, TimeUnit.SECONDS).values().stream()
          .flatMap(topic -> topic.partitions().stream())
          .allMatch(partition -> partition.leader() != null && partition.leader().id() != deadNode);
      if (moved) {
        return;
      }
      assertThat(System.nanoTime()).as("leaders moved off node %d", deadNode).isLessThan(deadline);
      Thread.sleep(200);
    }
  }

  // Every message of the event log, read_committed, by conversation in log order.
  private static Map<String, List<Message>> eventLog(String bootstrapServers, Topics topics) {
    Map<String, List<Message>> log = new HashMap<>();
    TopicScan.read(KafkaConnection.plain(bootstrapServers), topics.events(), Optional.empty(), event -> {
      if (event.getPayload() instanceof MessageAppended appended) {
        log.computeIfAbsent(appended.getMessage().getConvId(), conv -> new ArrayList<>()).add(appended.getMessage());
      }
    });
    return log;
  }
}
