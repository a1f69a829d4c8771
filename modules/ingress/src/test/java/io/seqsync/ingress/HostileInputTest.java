package io.seqsync.ingress;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.seqsync.config.ConfigLoader;
import io.seqsync.config.KafkaConnection;
import io.seqsync.config.ObjectStoreSettings;
import io.seqsync.config.SeqsyncConfig;
import io.seqsync.consumers.TopicAdmin;
import io.seqsync.events.AttachmentRules;
import io.seqsync.events.ConvId;
import io.seqsync.events.Topics;
import io.seqsync.events.model.Command;
import io.seqsync.events.model.DeliveryReport;
import io.seqsync.ingress.attachments.Uploads;
import io.seqsync.ingress.commands.CommandPublisher;
import io.seqsync.ingress.commands.ReplyWaiter;
import io.seqsync.localstack.EmbeddedKafka;
import io.seqsync.localstack.LocalPostgres;
import io.seqsync.localstack.LocalRedis;
import io.seqsync.localstack.LocalS3;
import io.seqsync.localstack.TemporaryDirectory;
import io.seqsync.objects.ObjectStore;
import io.seqsync.sequencer.CommandValidator;
import io.seqsync.testkit.StreamClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Whatever a member sends (any route of {@link HostileRequests#ROUTES} with hostile paths, queries
 * and bodies; any frame on the push stream), the answer is never a 5xx, every error is the JSON
 * error body, a refused request produces nothing, and every command that reaches the commands
 * topic is one the sequencer's {@link CommandValidator} accepts, on behalf of the token's caller.
 * One real stack (Kafka, PostgreSQL, Redis) and one ingress for the whole class.
 */
class HostileInputTest {
  private static final Duration STREAM_WAIT = Duration.ofSeconds(20);
  private static final int MAX_CONTENT = 1024;
  private static final int MAX_GROUP_MEMBERS = 10_000;
  private static final long HTTP_USER = 1;
  private static final long STREAM_USER = 2;
  private static final CommandValidator VALIDATOR = new CommandValidator(MAX_CONTENT, MAX_GROUP_MEMBERS);
  private static final Set<String> CLIENT_FRAME_ANSWERS = Set.of("sync", "error", "pong");
  /** Jetty's limit of a WebSocket text frame, in bytes of UTF-8; a larger one closes the socket. */
  private static final int MAX_TEXT_FRAME = 64 * 1024;
  private static final int HUGE_FRAME = MAX_TEXT_FRAME + 1000;
  // A request refused before its body is read has the connection closed behind the answer; a
  // client still writing a body this large may see the close instead of the answer.
  private static final int BODY_THE_SERVER_MAY_LEAVE_UNREAD = 64 * 1024;

  private static Path dir;
  private static LocalPostgres postgres;
  private static EmbeddedKafka kafka;
  private static LocalRedis redis;
  private static LocalS3 objects;
  private static ObjectStore store;
  private static CommandPublisher publisher;
  private static ReplyWaiter waiter;
  private static TopicTap<Command> commands;
  private static TopicTap<DeliveryReport> reports;
  private static TestApp test;
  private static RawHttp raw;
  private static String httpToken;
  private static String streamToken;
  private static StreamClient bystander;

  record Frame(String text, byte[] binary) {
    @Override
    public String toString() {
      return binary != null ? "binary(" + binary.length + ")"
          : text.length() > 200 ? text.substring(0, 200) + "...(" + text.length() + ")" : text;
    }
  }

  @BeforeContainer
  static void start() throws IOException {
    dir = Files.createTempDirectory("hostile-input-");
    postgres = LocalPostgres.start(dir.resolve("postgres"), 0);
    kafka = EmbeddedKafka.start(dir.resolve("kafka"), 0);
    redis = LocalRedis.start(dir.resolve("redis"), 0);
    SeqsyncConfig config = ConfigLoader.of(Map.of("kafka.partitions", "2"));
    Topics topics = Topics.from(config.kafka());
    TopicAdmin.ensure(KafkaConnection.plain(kafka.bootstrapServers()), topics, (short) 1);
    publisher = new CommandPublisher(KafkaConnection.plain(kafka.bootstrapServers()), topics.commands(), config.http().commandLinger());
    waiter = new ReplyWaiter(); // not listening: sends answer 202 once Kafka has them
    commands = new TopicTap<>(kafka.bootstrapServers(), topics.commands());
    reports = new TopicTap<>(kafka.bootstrapServers(), topics.telemetry());
    objects = LocalS3.start(dir.resolve("s3"), 0, ObjectStoreSettings.EMBEDDED_ACCESS_KEY, ObjectStoreSettings.EMBEDDED_SECRET_KEY);
    store = ObjectStore.connect(objects.url(), config.objectStore()).ensureBucket();
    test = new TestApp(postgres, publisher, waiter, Duration.ZERO, MAX_CONTENT, Map.of(), URI.create(redis.uri()), true,
        Optional.of(new Uploads(store, new AttachmentRules(config.sequencer().attachments()), () -> { })));
    test.rows.conversation("d:1:2", 1, 2).message("d:1:2", 1, 501, 2, "text", "hi")
        .message("d:1:2", 2, 502, 1, "text", "mine").message("d:1:2", 3, 503, 1, "system", "{}")
        .conversation("g:team", 1, 3).conversation("d:2:3", 2, 3);
    raw = new RawHttp(test.app.port());
    httpToken = test.token(HTTP_USER, "phone");
    streamToken = test.token(STREAM_USER, "laptop");
    bystander = StreamClient.withHeader(test.app.port(), test.token(STREAM_USER, "tablet"));
    assertThat(bystander.nextOrClose(STREAM_WAIT).path("type").asText()).isEqualTo("sync");
  }

  @AfterContainer
  static void stop() {
    Stream.<AutoCloseable>of(bystander, test, commands, reports, publisher, store, objects, redis, kafka, postgres).forEach(HostileInputTest::close);
    TemporaryDirectory.deleteTree(dir);
  }

  @Property(tries = 250)
  void noRequestGetsA5xxAndOnlyValidCommandsReachKafka(@ForAll("requests") HostileRequests.Request request) {
    Http.Response response;
    try {
      response = send(request);
    } catch (UncheckedIOException dropped) {
      assertThat(request.body().getBytes(StandardCharsets.UTF_8).length)
          .as("connection dropped (%s) for %s", dropped.getMessage(), request).isGreaterThan(BODY_THE_SERVER_MAY_LEAVE_UNREAD);
      assertThat(producedBy(HTTP_USER)).as("commands produced by the dropped %s", request).isEmpty();
      assertThat(reported()).as("reports produced by the dropped %s", request).isEmpty();
      assertThat(test.http.get("/health", null).status()).isEqualTo(200);
      return;
    }

    assertThat(response.status()).as("%s -> %s", request, response.body()).isBetween(200, 499);
    List<Command> produced = producedBy(HTTP_USER);
    List<DeliveryReport> reported = reported();
    if (response.status() >= 300) {
      assertErrorBody(response.json(), request.toString());
      assertThat(response.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
      assertThat(produced).as("commands produced by the refused %s", request).isEmpty();
      assertThat(reported).as("reports produced by the refused %s", request).isEmpty();
    } else if (response.headers().firstValue("Content-Type").orElse("").startsWith("application/json")
        && response.json().has("accepted")) {
      assertThat(produced.size() + reported.size()).as("commands and reports of %s", request)
          .isEqualTo(response.json().get("accepted").asInt());
    }
  }

  @Property(tries = 40)
  void garbageFramesGetErrorFramesOrACleanClose(@ForAll("frames") List<Frame> frames) {
    boolean huge = frames.stream().anyMatch(frame ->
        frame.text() != null && frame.text().getBytes(StandardCharsets.UTF_8).length > MAX_TEXT_FRAME);
    try (StreamClient probe = StreamClient.withHeader(test.app.port(), streamToken)) {
      assertThat(probe.nextOrClose(STREAM_WAIT).path("type").asText()).isEqualTo("sync");
      boolean open = true;
      for (int i = 0; i < frames.size() && open; i++) {
        open = frames.get(i).binary() != null ? probe.trySendBinary(frames.get(i).binary()) : probe.trySend(frames.get(i).text());
      }
      if (open) {
        probe.trySend("{\"type\":\"ping\"}");
      }
      List<JsonNode> answers = new ArrayList<>();
      for (JsonNode frame = probe.nextOrClose(STREAM_WAIT); frame != null; frame = probe.nextOrClose(STREAM_WAIT)) {
        answers.add(frame);
        if (frame.path("type").asText().equals("pong")) {
          break;
        }
      }
      answers.forEach(frame -> {
        assertThat(frame.path("type").asText()).as("%s", frame).isIn(CLIENT_FRAME_ANSWERS);
        if (frame.path("type").asText().equals("error")) {
          assertErrorBody(frame, frames.toString());
        }
      });
      if (probe.isClosed()) {
        assertThat(huge).as("closed (%s) though no frame was too large: %s", probe.closeCode(STREAM_WAIT), frames).isTrue();
        // 1009 (message too big); or the client saw the connection go while it was still writing.
        assertThat(probe.closeCode(STREAM_WAIT)).isIn(1009, StreamClient.DROPPED);
      } else {
        assertThat(answers).last().satisfies(last -> assertThat(last.path("type").asText()).isEqualTo("pong"));
      }
    }
    assertThat(bystander.trySend("{\"type\":\"ping\"}")).isTrue();
    assertThat(bystander.nextOrClose(STREAM_WAIT).path("type").asText()).as("another connection still answers").isEqualTo("pong");
    producedBy(STREAM_USER);
  }

  @Provide
  Arbitrary<HostileRequests.Request> requests() {
    return new HostileRequests(MAX_CONTENT).requests();
  }

  @Provide
  Arbitrary<List<Frame>> frames() {
    HostileRequests requests = new HostileRequests(MAX_CONTENT);
    Arbitrary<Frame> json = Arbitraries.oneOf(requests.bodies("{\"type\":\"ack\",\"convId\":\"d:1:2\",\"seq\":1}"),
            requests.bodies("{\"type\":\"read\",\"convId\":\"d:1:2\",\"seq\":2}"), requests.bodies("{\"type\":\"ping\"}"))
        // Oversized frames come from `huge` only: past the limit, how far makes no difference to the
        // server, but a client still writing a large frame when the server closes may never see the close.
        .filter(text -> wellFormed(text) && text.getBytes(StandardCharsets.UTF_8).length <= MAX_TEXT_FRAME)
        .map(text -> new Frame(text, null));
    // Well-formed UTF-16 only: a WebSocket client cannot send anything else as a text frame.
    Arbitrary<Frame> text = Arbitraries.strings().ofMaxLength(30).filter(HostileInputTest::wellFormed)
        .map(garbage -> new Frame(garbage, null));
    Arbitrary<Frame> binary = Arbitraries.bytes().array(byte[].class).ofMaxSize(64).map(bytes -> new Frame(null, bytes));
    Arbitrary<Frame> huge = Arbitraries.of(new Frame("x".repeat(HUGE_FRAME), null),
        new Frame("{\"type\":\"ack\",\"convId\":\"d:1:2\",\"seq\":1,\"pad\":\"" + "x".repeat(HUGE_FRAME) + "\"}", null));
    return Arbitraries.frequencyOf(Tuple.of(6, json), Tuple.of(2, text), Tuple.of(2, binary), Tuple.of(1, huge))
        .list().ofMinSize(1).ofMaxSize(5);
  }

  private static Http.Response send(HostileRequests.Request request) {
    try {
      return sendOnce(request);
    } catch (UncheckedIOException dropped) {
      // The JDK client may reuse a pooled connection the server has just closed (after refusing the
      // previous request) and gets no byte back; it retries a GET then, never a POST. Once more: a
      // server that drops this request drops it again.
      if (!String.valueOf(dropped.getMessage()).contains("received no bytes")) {
        throw dropped;
      }
      return sendOnce(request);
    }
  }

  private static Http.Response sendOnce(HostileRequests.Request request) {
    HttpRequest.Builder builder;
    try {
      builder = test.http.builder(request.path(), httpToken);
    } catch (IllegalArgumentException notAUri) { // a bad escape: only a raw client sends that
      return raw.send(request.method(), request.path(), httpToken, request.body());
    }
    return test.http.send(builder.method(request.method(), HttpRequest.BodyPublishers.ofString(request.body()))
        .header("Content-Type", "application/json").build());
  }

  // Every command produced since the last call must be valid and the token's caller's; those of `userId`.
  private static List<Command> producedBy(long userId) {
    List<Command> produced = new ArrayList<>();
    for (ConsumerRecord<String, Command> record : commands.drain()) {
      Command command = record.value();
      assertThat(VALIDATOR.problem(record.key(), command)).as("%s", command).isEmpty();
      assertThat(command.getUserId()).isIn(HTTP_USER, STREAM_USER);
      assertThat(command.getDeviceId()).isEqualTo(command.getUserId() == HTTP_USER ? "phone" : "laptop");
      if (command.getUserId() == userId) {
        produced.add(command);
      }
    }
    return produced;
  }

  // Only the HTTP user reports (the stream takes no reports), for itself, about a message it may name.
  private static List<DeliveryReport> reported() {
    List<DeliveryReport> reported = new ArrayList<>();
    for (ConsumerRecord<String, DeliveryReport> record : reports.drain()) {
      DeliveryReport report = record.value();
      assertThat(report.getUserId()).as("%s", report).isEqualTo(HTTP_USER);
      assertThat(report.getDeviceId()).isEqualTo("phone");
      assertThat(record.key()).isEqualTo(report.getConvId());
      assertThat(ConvId.parse(report.getConvId())).as("%s", report).isPresent();
      assertThat(report.getMsgId()).isPositive();
      assertThat(report.getSeq()).isPositive();
      reported.add(report);
    }
    return reported;
  }

  private static void assertErrorBody(JsonNode body, String what) {
    assertThat(body.path("error").path("code").isTextual()).as("error code for %s: %s", what, body).isTrue();
    assertThat(body.path("error").path("code").asText()).as(what).isNotBlank();
    assertThat(body.path("error").path("message").isTextual()).as("error message for %s: %s", what, body).isTrue();
  }

  private static boolean wellFormed(String text) {
    return StandardCharsets.UTF_8.newEncoder().canEncode(text);
  }

  private static void close(AutoCloseable closeable) {
    try {
      if (closeable != null) {
        closeable.close();
      }
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
