package io.seqsync.bench.send;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqsync.bench.BenchSupport;
import io.seqsync.localstack.EmbeddedKafka;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The send benchmark's reference against a real broker: a send is answered 200 only once its body
 * is on the reference topic, keyed by its conversation; anything else is not a send.
 */
class ProduceReferenceTest {
  private static Path dir;
  private static EmbeddedKafka kafka;
  private static ProduceReference reference;
  private static final HttpClient http = HttpClient.newHttpClient();

  @BeforeAll
  static void start() throws Exception {
    dir = Files.createTempDirectory("produce-reference-");
    kafka = EmbeddedKafka.start(dir.resolve("kafka"), 0);
    reference = ProduceReference.start(kafka.bootstrapServers(), 2, Duration.ofMillis(5));
  }

  @AfterAll
  static void stop() {
    if (reference != null) {
      reference.close();
    }
    if (kafka != null) {
      kafka.close();
    }
    BenchSupport.deleteTree(dir);
  }

  @Test
  void aSendIsAnsweredOnceKafkaHoldsItsBody() throws Exception {
    String body = "{\"clientMsgId\":\"c-1\",\"type\":\"text\",\"content\":\"hi\"}";
    HttpResponse<String> answer = post("/v1/conversations/d:1:2/messages", body);
    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.body()).isEqualTo("{\"message\":{}}");

    // Acknowledged with acks=all before the answer: already readable, nothing to wait for but the fetch.
    List<ConsumerRecord<String, String>> records = readAll();
    assertThat(records).singleElement().satisfies(record -> {
      assertThat(record.key()).isEqualTo("d:1:2");
      assertThat(record.value()).isEqualTo(body);
    });
  }

  @Test
  void onlyAPostToAConversationsMessagesIsASend() throws Exception {
    assertThat(post("/v1/conversations/d:1:2/messages/3/recall", "{}").statusCode()).isEqualTo(404);
    assertThat(post("/v1/sync", "{}").statusCode()).isEqualTo(404);
    HttpResponse<String> get = http.send(HttpRequest.newBuilder(uri("/v1/conversations/d:1:2/messages")).GET().build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(get.statusCode()).isEqualTo(404);
    assertThat(ProduceReference.conversationOf("/v1/conversations//messages")).isNull();
    assertThat(ProduceReference.conversationOf("/v1/conversations/g:team/messages")).isEqualTo("g:team");
  }

  private static HttpResponse<String> post(String path, String body) throws Exception {
    return http.send(HttpRequest.newBuilder(uri(path)).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  private static URI uri(String path) {
    return URI.create("http://127.0.0.1:" + reference.port() + path);
  }

  /** Every record on the reference topic, read from the start until a poll brings nothing new. */
  private static List<ConsumerRecord<String, String>> readAll() {
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new StringDeserializer(), new StringDeserializer())) {
      List<TopicPartition> partitions = List.of(new TopicPartition(ProduceReference.TOPIC, 0),
          new TopicPartition(ProduceReference.TOPIC, 1));
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      List<ConsumerRecord<String, String>> records = new ArrayList<>();
      Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (partitions.stream().anyMatch(partition -> consumer.position(partition) < ends.get(partition))
          && System.nanoTime() < deadline) {
        consumer.poll(Duration.ofMillis(200)).forEach(records::add);
      }
      return records;
    }
  }
}
