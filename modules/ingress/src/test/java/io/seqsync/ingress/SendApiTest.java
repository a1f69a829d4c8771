package io.seqsync.ingress;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.seqsync.config.ConfigLoader;
import io.seqsync.config.KafkaConnection;
import io.seqsync.config.SeqsyncConfig;
import io.seqsync.consumers.TopicAdmin;
import io.seqsync.events.Announcements;
import io.seqsync.events.Commands;
import io.seqsync.events.EventSerdes;
import io.seqsync.events.Topics;
import io.seqsync.events.model.Command;
import io.seqsync.events.model.DuplicateCommand;
import io.seqsync.events.model.MessageType;
import io.seqsync.events.model.RecallMessage;
import io.seqsync.events.model.SendMessage;
import io.seqsync.events.model.StoredOutcome;
import io.seqsync.ingress.commands.CommandPublisher;
import io.seqsync.ingress.commands.ReplyWaiter;
import io.seqsync.localstack.EmbeddedKafka;
import io.seqsync.localstack.LocalPostgres;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The send and recall paths against a real Kafka broker, Redis and PostgreSQL. The test plays
 * the sequencer and the projector: it reads the command the ingress produced, stores rows with
 * plain SQL and then announces the outcome on the announcements topic, or produces a DuplicateCommand to the
 * replies topic, exactly as they do.
 */
class SendApiTest {
  private static final String CONV = "d:1:2";
  private static final String SEND = "/v1/conversations/" + CONV + "/messages";
  private static final Duration WAIT = Duration.ofSeconds(20);

  @TempDir static Path dir;
  private static LocalPostgres postgres;
  private static EmbeddedKafka kafka;
  private static Topics topics;
  private static CommandPublisher publisher;
  private static ReplyWaiter waiter;
  private static KafkaProducer<byte[], byte[]> announcer;
  private static KafkaProducer<String, DuplicateCommand> replies;
  private static TopicTap<Command> commands;

  private TestApp test;
  private String phone;

  @BeforeAll
  static void start() {
    postgres = LocalPostgres.start(dir.resolve("postgres"), 0);
    kafka = EmbeddedKafka.start(dir.resolve("kafka"), 0);
    SeqsyncConfig config = ConfigLoader.of(Map.of("kafka.partitions", "3"));
    topics = Topics.from(config.kafka());
    TopicAdmin.ensure(KafkaConnection.plain(kafka.bootstrapServers()), topics, (short) 1);
    publisher = new CommandPublisher(KafkaConnection.plain(kafka.bootstrapServers()), topics.commands(), config.http().commandLinger());
    waiter = ReplyWaiter.start(KafkaConnection.plain(kafka.bootstrapServers()), topics.replies().name(),
        topics.announcements().name(), "send-api-test-ingress");
    announcer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
        new ByteArraySerializer(), new ByteArraySerializer());
    replies = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
        ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), EventSerdes.duplicate().serializer());
    commands = new TopicTap<>(kafka.bootstrapServers(), topics.commands());
  }

  @AfterAll
  static void stop() {
    commands.close();
    replies.close();
    announcer.close();
    waiter.close();
    publisher.close();
    kafka.close();
    postgres.close();
  }

  // As the projector does after its commit.
  private static void announce(List<StoredOutcome> outcomes) {
    try {
      announcer.send(new ProducerRecord<>(topics.announcements().name(), Announcements.encode(outcomes)))
          .get(WAIT.toSeconds(), TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("could not announce " + outcomes, e);
    }
  }

  @BeforeEach
  void app() {
    test = new TestApp(postgres, publisher, waiter, Duration.ofSeconds(5), 1024);
    phone = test.token(1, "phone");
  }

  @AfterEach
  void close() {
    test.close();
  }

  @Test
  void publishingCannotWaitOnceKafkaHasAcknowledgedACommand() throws Exception {
    CommandPublisher fresh = new CommandPublisher(KafkaConnection.plain(kafka.bootstrapServers()), topics.commands(), Duration.ofMillis(5));
    try {
      // Nothing acknowledged yet: the first publish may wait for the topic's metadata.
      assertThat(fresh.publishesWithoutBlocking()).isFalse();
      String clientMsgId = unique();
      fresh.publish(throwaway(clientMsgId)).get(WAIT.toSeconds(), TimeUnit.SECONDS);
      assertThat(fresh.publishesWithoutBlocking()).isTrue();
      commands.next(sendOf(clientMsgId), WAIT);
    } finally {
      fresh.close();
    }
  }

  @Test
  void aSendWhoseBodyArrivesLateIsSentOnceItHas() throws Exception {
    // Kafka has answered, so a direct send is submitted on the selector thread that read its head;
    // this body is not there yet then, and the send goes on from the pool once it has arrived.
    String first = unique();
    publisher.publish(throwaway(first)).get(WAIT.toSeconds(), TimeUnit.SECONDS);
    assertThat(publisher.publishesWithoutBlocking()).isTrue();
    commands.next(sendOf(first), WAIT);
    String clientMsgId = unique();
    RawHttp raw = new RawHttp(test.app.port());
    CompletableFuture<Http.Response> answer = CompletableFuture.supplyAsync(
        () -> raw.sendSlowly("POST", SEND, phone, send(clientMsgId, "text", "late body"), 300));

    Command command = commands.next(sendOf(clientMsgId), WAIT).value();
    assertThat(((SendMessage) command.getPayload()).getContent()).isEqualTo("late body");
    announce(List.of(Announcements.appended(command.getCommandId(), CONV, 51, 5151, 1_764_410_000_000L)));
    Http.Response response = answer.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    assertThat(response.status()).as(response.body()).isEqualTo(200);
    assertThat(response.json().get("message").get("seq").asLong()).isEqualTo(51);
    assertThat(response.json().get("message").get("content").asText()).isEqualTo("late body");
  }

  @Test
  void aSendAnswersItsMessageOnceStoredAndAnnounced() throws Exception {
    String clientMsgId = unique();
    CompletableFuture<Http.Response> answer = test.http.postAsync(SEND, phone, send(clientMsgId, "image", "https://x/y.png"));

    ConsumerRecord<String, Command> record = commands.next(sendOf(clientMsgId), WAIT);
    Command command = record.value();
    assertThat(record.key()).isEqualTo(CONV);
    assertThat(command.getConvId()).isEqualTo(CONV);
    assertThat(command.getUserId()).isEqualTo(1);
    assertThat(command.getDeviceId()).isEqualTo("phone");
    SendMessage payload = (SendMessage) command.getPayload();
    assertThat(payload.getType()).isEqualTo(MessageType.IMAGE);
    assertThat(payload.getContent()).isEqualTo("https://x/y.png");

    // Someone else's outcome, and an outcome announced before the rows exist, change nothing.
    announce(List.of(Announcements.appended("another-command", CONV, 9, 9, 0)));
    Thread.sleep(200);
    assertThat(answer).isNotDone();

    store(command, 1, 9_007_199_254_740_993L);
    Http.Response response = answer.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    assertThat(response.status()).as(response.body()).isEqualTo(200);
    JsonNode body = response.json();
    assertThat(body.get("duplicate").asBoolean()).isFalse();
    JsonNode message = body.get("message");
    assertThat(message.get("msgId").asText()).isEqualTo("9007199254740993");
    assertThat(message.get("convId").asText()).isEqualTo(CONV);
    assertThat(message.get("seq").asLong()).isEqualTo(1);
    assertThat(message.get("senderId").asText()).isEqualTo("1");
    assertThat(message.get("senderDevice").asText()).isEqualTo("phone");
    assertThat(message.get("clientMsgId").asText()).isEqualTo(clientMsgId);
    assertThat(message.get("type").asText()).isEqualTo("image");
    assertThat(message.get("content").asText()).isEqualTo("https://x/y.png");
    assertThat(message.get("recalled").asBoolean()).isFalse();
    assertThat(waiter.pendingCount()).isZero();
    // Answered asynchronously, timed all the same.
    assertThat(test.http.get("/metrics", null).body())
        .contains("http_server_requests_seconds_count{method=\"POST\",route=\"/v1/conversations/{convId}/messages\",status=\"200\"} 1")
        .contains("seqsync_ingress_commands_total{outcome=\"stored\"} 1");
  }

  @Test
  void aRetryAnswersTheOriginalAsADuplicate() throws Exception {
    test.rows.message(CONV, 4, 4444, 1, "text", "the original");
    CompletableFuture<Http.Response> answer = test.http.postAsync(SEND, phone, send("retry-" + unique(), "text", "again"));
    Command command = commands.next(from(1), WAIT).value();

    duplicate(command, 4444, 4);
    Http.Response response = answer.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    assertThat(response.status()).as(response.body()).isEqualTo(200);
    assertThat(response.json().get("duplicate").asBoolean()).isTrue();
    assertThat(response.json().get("message").get("msgId").asText()).isEqualTo("4444");
    assertThat(response.json().get("message").get("seq").asLong()).isEqualTo(4);
    assertThat(response.json().get("message").get("content").asText()).isEqualTo("the original");
  }

  @Test
  void aSendIsAnsweredFromItsCommandAndAnnouncedOutcomeWithoutReadingTheRow() throws Exception {
    String clientMsgId = unique();
    CompletableFuture<Http.Response> answer = test.http.postAsync(SEND, phone, send(clientMsgId, "text", "from the outcome"));
    Command command = commands.next(sendOf(clientMsgId), WAIT).value();
    // No row: the announcement alone (sent only after PostgreSQL committed, in the real projector) answers.
    announce(List.of(Announcements.appended(command.getCommandId(), CONV, 41, 4141, 1_764_410_000_123L)));

    Http.Response response = answer.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    assertThat(response.status()).as(response.body()).isEqualTo(200);
    JsonNode message = response.json().get("message");
    assertThat(message.get("msgId").asText()).isEqualTo("4141");
    assertThat(message.get("seq").asLong()).isEqualTo(41);
    assertThat(message.get("senderId").asText()).isEqualTo("1");
    assertThat(message.get("senderDevice").asText()).isEqualTo("phone");
    assertThat(message.get("clientMsgId").asText()).isEqualTo(clientMsgId);
    assertThat(message.get("type").asText()).isEqualTo("text");
    assertThat(message.get("content").asText()).isEqualTo("from the outcome");
    assertThat(message.get("createTime").asLong()).isEqualTo(1_764_410_000_123L);
    assertThat(message.get("recalled").asBoolean()).isFalse();
  }

  @Test
  void aDuplicateWaitsUntilPostgresHasTheOriginal() throws Exception {
    CompletableFuture<Http.Response> answer = test.http.postAsync(SEND, phone, send(unique(), "text", "x"));
    Command command = commands.next(from(1), WAIT).value();
    duplicate(command, 1111, 1);
    Thread.sleep(500);
    assertThat(answer).isNotDone();

    test.rows.message(CONV, 1, 1111, 1, "text", "stored late");
    announce(List.of(Announcements.appended("the-original-command", CONV, 1, 1111, 0)));
    Http.Response response = answer.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    assertThat(response.status()).isEqualTo(200);
    assertThat(response.json().get("duplicate").asBoolean()).isTrue();
    assertThat(response.json().get("message").get("content").asText()).isEqualTo("stored late");
  }

  @Test
  void aDuplicateAlsoFindsAnOriginalThatWasNeverAnnounced() throws Exception {
    CompletableFuture<Http.Response> answer = test.http.postAsync(SEND, phone, send(unique(), "text", "x"));
    Command command = commands.next(from(1), WAIT).value();
    duplicate(command, 2222, 2);
    Thread.sleep(300);
    test.rows.message(CONV, 1, 1111, 2, "text", "one").message(CONV, 2, 2222, 1, "text", "two");

    Http.Response response = answer.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    assertThat(response.status()).isEqualTo(200);
    assertThat(response.json().get("message").get("msgId").asText()).isEqualTo("2222");
  }

  @Test
  void aRejectedSendIsA4xxWithTheReason() throws Exception {
    CompletableFuture<Http.Response> answer = test.http.postAsync(SEND, phone, send(unique(), "text", "x"));
    Command command = commands.next(from(1), WAIT).value();
    announce(List.of(Announcements.rejected(command.getCommandId(), CONV, "INVALID_COMMAND: content exceeds 10 bytes")));

    Http.Response response = answer.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    assertThat(response.status()).isEqualTo(400);
    assertThat(response.errorCode()).isEqualTo("invalid_command");
    assertThat(response.json().path("error").path("message").asText()).contains("content exceeds 10 bytes");
  }

  @Test
  void noAnswerWithinTheBudgetIs202Accepted() throws Exception {
    try (TestApp quick = new TestApp(postgres, publisher, waiter, Duration.ofMillis(700), 1024)) {
      String clientMsgId = unique();
      long begin = System.nanoTime();
      Http.Response response = quick.http.post(SEND, quick.token(1, "phone"), send(clientMsgId, "text", "x"));
      long elapsedMs = (System.nanoTime() - begin) / 1_000_000;

      assertThat(response.status()).isEqualTo(202);
      JsonNode body = response.json();
      assertThat(body.get("status").asText()).isEqualTo("accepted");
      assertThat(body.get("clientMsgId").asText()).isEqualTo(clientMsgId);
      assertThat(body.get("convId").asText()).isEqualTo(CONV);
      assertThat(body.has("msgId")).isTrue();
      assertThat(body.get("msgId").isNull()).isTrue();
      assertThat(elapsedMs).isBetween(650L, 5_000L);
      // It was durably produced all the same.
      assertThat(commands.next(sendOf(clientMsgId), WAIT).value().getConvId()).isEqualTo(CONV);

      // A duplicate whose original PostgreSQL does not have in time: 202 with the msgId known.
      CompletableFuture<Http.Response> retry = quick.http.postAsync(SEND, quick.token(1, "phone"), send(clientMsgId, "text", "x"));
      duplicate(commands.next(sendOf(clientMsgId), WAIT).value(), 31337, 7);
      Http.Response accepted = retry.get(WAIT.toSeconds(), TimeUnit.SECONDS);
      assertThat(accepted.status()).isEqualTo(202);
      assertThat(accepted.json().get("msgId").asText()).isEqualTo("31337");
    }
    assertThat(waiter.pendingCount()).isZero();
  }

  @Test
  void preferRespondAsyncIsAnswered202OnceKafkaHasTheCommand() throws Exception {
    // A budget no answer here could wait out: only the command's acknowledgement can end these sends.
    try (TestApp patient = new TestApp(postgres, publisher, waiter, Duration.ofMinutes(5), 1024)) {
      for (String prefer : List.of("respond-async", "wait=10, Respond-Async;x=1")) {
        String clientMsgId = unique();
        Http.Response response = patient.http.send(patient.http.builder(SEND, patient.token(1, "phone"))
            .POST(HttpRequest.BodyPublishers.ofString(send(clientMsgId, "text", "soon")))
            .header("Content-Type", "application/json").header("Prefer", prefer).build());

        assertThat(response.status()).as(prefer + ": " + response.body()).isEqualTo(202);
        assertThat(response.json().get("status").asText()).isEqualTo("accepted");
        assertThat(response.json().get("clientMsgId").asText()).isEqualTo(clientMsgId);
        assertThat(response.json().get("msgId").isNull()).isTrue();
        assertThat(commands.next(sendOf(clientMsgId), WAIT).value().getConvId()).isEqualTo(CONV);
      }
      assertThat(waiter.pendingCount()).as("nothing waits for their outcomes").isZero();
      assertThat(patient.registry.counter("seqsync.ingress.commands", "outcome", "respond_async").count()).isEqualTo(2.0);
      assertThat(patient.registry.find("seqsync.ingress.commands").tag("outcome", "accepted").counter()).isNull();
    }
  }

  @Test
  void recallAnswersTheNoticeAndOnlyTheSenderMayRecall() throws Exception {
    test.rows.message(CONV, 1, 101, 1, "text", "oops").message(CONV, 2, 102, 2, "text", "theirs");
    assertThat(test.http.post(SEND + "/2/recall", phone, "").status()).isEqualTo(403);

    CompletableFuture<Http.Response> answer = test.http.postAsync(SEND + "/1/recall", phone, "");
    Command command = commands.next(c -> c.getPayload() instanceof RecallMessage && c.getUserId() == 1, WAIT).value();
    assertThat(((RecallMessage) command.getPayload()).getSeq()).isEqualTo(1);
    test.rows.message(CONV, 3, 103, 1, "recall", "1").recalled(CONV, 1);
    announce(List.of(Announcements.appended(command.getCommandId(), CONV, 3, 103, 1_000)));

    Http.Response response = answer.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    assertThat(response.status()).as(response.body()).isEqualTo(200);
    JsonNode notice = response.json().get("notice");
    assertThat(notice.get("seq").asLong()).isEqualTo(3);
    assertThat(notice.get("type").asText()).isEqualTo("recall");
    assertThat(notice.get("content").asText()).isEqualTo("1");
    JsonNode original = test.http.get(SEND + "?after=0&until=1", phone).json().get("messages").get(0);
    assertThat(original.get("recalled").asBoolean()).isTrue();

    // Recalled again: the sequencer answers the first notice.
    CompletableFuture<Http.Response> again = test.http.postAsync(SEND + "/1/recall", phone, "");
    duplicate(commands.next(c -> c.getPayload() instanceof RecallMessage && c.getUserId() == 1, WAIT).value(), 103, 3);
    Http.Response repeated = again.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    assertThat(repeated.status()).isEqualTo(200);
    assertThat(repeated.json().get("notice").get("seq").asLong()).isEqualTo(3);
    assertThat(repeated.json().get("duplicate").asBoolean()).isTrue();
  }

  @Test
  void aRecallTheSequencerRejectsIsA404() throws Exception {
    test.rows.message(CONV, 1, 101, 1, "text", "oops");
    CompletableFuture<Http.Response> answer = test.http.postAsync(SEND + "/1/recall", phone, "");
    Command command = commands.next(c -> c.getPayload() instanceof RecallMessage, WAIT).value();
    announce(List.of(Announcements.rejected(command.getCommandId(), CONV, "NO_SUCH_MESSAGE: no message at seq 1")));

    Http.Response response = answer.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    assertThat(response.status()).isEqualTo(404);
    assertThat(response.errorCode()).isEqualTo("no_such_message");
  }

  @Test
  void concurrentSendsEachGetTheirOwnMessage() throws Exception {
    test.rows.conversation("g:team", 1, 2, 3);
    int count = 30;
    List<CompletableFuture<Http.Response>> answers = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String token = test.token(1 + i % 3, "device-" + i);
      answers.add(test.http.postAsync("/v1/conversations/g:team/messages", token, send("c-" + i, "text", "n" + i)));
    }
    // Sequence them in arrival order, as the sequencer would, and store-then-announce each.
    for (int seq = 1; seq <= count; seq++) {
      Command command = commands.next(c -> c.getConvId().equals("g:team"), WAIT).value();
      SendMessage payload = (SendMessage) command.getPayload();
      test.rows.message("g:team", seq, 5000 + seq, command.getUserId(), "text", payload.getContent());
      announce(List.of(Announcements.appended(command.getCommandId(), "g:team", seq, 5000 + seq, 0)));
    }
    Set<Long> seqs = new HashSet<>();
    for (int i = 0; i < count; i++) {
      Http.Response response = answers.get(i).get(WAIT.toSeconds(), TimeUnit.SECONDS);
      assertThat(response.status()).as(response.body()).isEqualTo(200);
      assertThat(response.json().get("message").get("content").asText()).isEqualTo("n" + i);
      assertThat(response.json().get("message").get("senderId").asText()).isEqualTo(Long.toString(1 + i % 3));
      seqs.add(response.json().get("message").get("seq").asLong());
    }
    assertThat(seqs).hasSize(count);
    assertThat(waiter.pendingCount()).isZero();
  }

  @Test
  void healthIsOkWhenEverythingAnswers() {
    Http.Response response = test.http.get("/health", null);
    assertThat(response.status()).as(response.body()).isEqualTo(200);
    assertThat(response.json().get("status").asText()).isEqualTo("ok");
    assertThat(response.json().path("checks").path("replies").asText()).isEqualTo("up");
    for (String probe : List.of("/health/ready", "/health/live")) {
      Http.Response answer = test.http.get(probe, null);
      assertThat(answer.status()).as("%s: %s", probe, answer.body()).isEqualTo(200);
      assertThat(answer.json().get("status").asText()).isEqualTo("ok");
      assertThat(answer.json().path("dependencies").path("kafka").path("state").asText()).isEqualTo("up");
      assertThat(answer.json().path("dependencies").path("postgres").path("state").asText()).isEqualTo("up");
    }
  }

  private void store(Command command, long seq, long msgId) {
    SendMessage payload = (SendMessage) command.getPayload();
    test.database.jdbi().useTransaction(handle -> {
      handle.execute("insert into conversations (conv_id, kind) values (?, 'direct') on conflict do nothing",
          command.getConvId());
      handle.execute("insert into messages (conv_id, seq, msg_id, sender_id, sender_device, client_msg_id, type,"
              + " content, create_time) values (?, ?, ?, ?, ?, ?, ?, ?, ?)", command.getConvId(), seq, msgId,
          command.getUserId(), command.getDeviceId(), payload.getClientMsgId(),
          payload.getType().name().toLowerCase(), payload.getContent(), command.getIssuedAt());
      handle.execute("update conversations set latest_seq = ? where conv_id = ?", seq, command.getConvId());
    });
    announce(List.of(Announcements.appended(command.getCommandId(), command.getConvId(), seq, msgId, command.getIssuedAt())));
  }

  private void duplicate(Command command, long msgId, long seq) throws Exception {
    replies.send(new ProducerRecord<>(topics.replies().name(), command.getConvId(),
        new DuplicateCommand(command.getCommandId(), command.getConvId(), msgId, seq))).get();
  }

  /** A command of user 2, which no other test waits for (they take user 1's next command); read it off the tap. */
  private static Command throwaway(String clientMsgId) {
    return new Commands(2, "tablet").sendText(CONV, clientMsgId, "x");
  }

  private static String send(String clientMsgId, String type, String content) {
    return "{\"clientMsgId\":\"" + clientMsgId + "\",\"type\":\"" + type + "\",\"content\":\"" + content + "\"}";
  }

  private static java.util.function.Predicate<Command> sendOf(String clientMsgId) {
    return c -> c.getPayload() instanceof SendMessage s && s.getClientMsgId().equals(clientMsgId);
  }

  private static java.util.function.Predicate<Command> from(long userId) {
    return c -> c.getPayload() instanceof SendMessage && c.getUserId() == userId;
  }

  private static String unique() {
    return UUID.randomUUID().toString();
  }
}
