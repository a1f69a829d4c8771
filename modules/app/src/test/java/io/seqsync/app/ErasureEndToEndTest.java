package io.seqsync.app;

import static io.seqsync.app.EndToEnd.accepted;
import static io.seqsync.app.EndToEnd.await;
import static io.seqsync.app.EndToEnd.ok;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.seqsync.config.KafkaConnection;
import io.seqsync.events.EventSerdes;
import io.seqsync.events.model.Event;
import io.seqsync.objects.ObjectStore;
import io.seqsync.projector.replay.ProjectionReplay;
import io.seqsync.store.Database;
import io.seqsync.store.keys.ContentOpener;
import io.seqsync.testkit.ApiClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.LongStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * Crypto-shredding on the real stack (docs/design.md, "Erasure"): a user's messages, edit, draft,
 * attachment name and reaction carry a marker that never reaches a topic in the clear; a recall
 * erases its message's marker (its attachment's name included) from every readable form at once
 * and deletes its object; erasing the user leaves the marker nowhere (every topic read raw, every
 * PostgreSQL table, every Redis key) and their object gone from the object store, the other member
 * sees placeholders at the same seqs 1..N, and a replay into an emptied projection shows the same.
 */
class ErasureEndToEndTest {
  private static final String DIRECT = "d:951:952";
  // A 1x1 PNG: what the uploads carry.
  private static final byte[] PNG = java.util.Base64.getDecoder().decode(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGBgAAAABQABh6FO1AAAAABJRU5ErkJggg==");

  @TempDir Path dir;

  @Test
  void anErasedUsersTextIsNowhereAndTheOthersSeePlaceholdersAtTheSameSeqs() {
    // At most 32 characters: a reaction's emoji carries it too.
    String marker = "MARK" + UUID.randomUUID().toString().replace("-", "").substring(0, 28);
    String recalled = "GONE" + UUID.randomUUID().toString().replace("-", "");
    JsonNode pageBefore;
    SeqsyncApp app = EndToEnd.start(dir);
    try (Database database = database(app); JedisPooled redis = new JedisPooled(URI.create(app.stack().redisUri()));
        ObjectStore objects = ObjectStore.connect(app.stack().objectStore().orElseThrow(),
            EndToEnd.config(dir).objectStore())) {
      ApiClient alice = EndToEnd.client(app, 951, "phone");
      ApiClient bob = EndToEnd.client(app, 952, "laptop");
      for (int i = 1; i <= 3; i++) {
        send(alice, "alice " + i + " " + marker);
      }
      send(bob, "bob keeps this");
      String recalledObject = sendImage(alice, "to recall " + recalled, upload(alice, "recall-" + recalled + ".png"));
      ok(alice.post("/v1/conversations/" + DIRECT + "/messages/1/edit", "{\"content\":\"edited " + marker + "\"}"));
      accepted(alice.put("/v1/conversations/" + DIRECT + "/draft", "{\"text\":\"draft " + marker + "\"}"));
      await(() -> ok(bob.get("/v1/conversations/" + DIRECT + "/messages?after=0")),
          page -> page.get("messages").size() == 6);
      assertThat(ok(bob.get("/v1/conversations/" + DIRECT + "/messages?after=0")).toString())
          .as("bob reads alice's text while she is not erased").contains("alice 2 " + marker);
      assertThat(hitsInTopics(app, marker)).as("the marker is sealed in every topic").isEmpty();

      ok(alice.post("/v1/conversations/" + DIRECT + "/messages/5/recall", ""));
      await(() -> ok(bob.get("/v1/conversations/" + DIRECT + "/messages?after=0")),
          page -> page.get("messages").size() == 7);
      assertThat(hits(app, database, redis, recalled)).as("a recall erases at once").isEmpty();
      assertThat(openedEvents(app, database)).as("the key store no longer opens it").doesNotContain(recalled)
          .contains("alice 3 " + marker);
      assertThat(objects.size(recalledObject)).as("a recall deletes its object").isEqualTo(-1);

      // An attachment's name and a reaction carry the marker too (seqs 8 and 9).
      String object = sendImage(alice, "photo", upload(alice, "photo " + marker + ".png"));
      ok(alice.put("/v1/conversations/" + DIRECT + "/messages/4/reactions/" + marker, ""));
      JsonNode reacted = await(() -> ok(bob.get("/v1/conversations/" + DIRECT + "/messages?after=0")),
          page -> page.get("messages").size() == 9);
      assertThat(reacted.toString()).as("bob sees the name and the reaction").contains("photo " + marker + ".png")
          .contains("\"emoji\":\"" + marker + "\"");
      assertThat(hitsInTopics(app, marker)).as("names and emoji are sealed in every topic").isEmpty();
      assertThat(objects.size(object)).isPositive();

      ApiClient service = new ApiClient(app.httpPort(), app.tokens().mintService("backend", Duration.ofHours(1)));
      assertThat(alice.post("/v1/users/951/erase", "").status()).as("a user's token").isEqualTo(403);
      assertThat(service.post("/v1/users/0/erase", "").status()).isEqualTo(400);
      JsonNode erased = ok(service.post("/v1/users/951/erase", ""));
      assertThat(erased.get("keys").asInt()).as("%s", erased).isGreaterThanOrEqualTo(5);

      assertThat(hits(app, database, redis, marker)).as("after the erasure").isEmpty();
      assertThat(erased.get("objects").asLong()).as("%s", erased).isEqualTo(1);
      assertThat(objects.size(object)).as("the erased user's object is gone").isEqualTo(-1);
      assertThat(openedEvents(app, database)).doesNotContain(marker).contains("bob keeps this");
      pageBefore = ok(bob.get("/v1/conversations/" + DIRECT + "/messages?after=0"));
      assertPlaceholders(pageBefore);
      assertThat(alice.get("/v1/conversations").status()).as("the erased user is signed out").isEqualTo(401);
    } finally {
      app.close();
    }

    ProjectionReplay.run(EndToEnd.config(dir));
    app = EndToEnd.start(dir);
    try (Database database = database(app); JedisPooled redis = new JedisPooled(URI.create(app.stack().redisUri()))) {
      ApiClient bob = EndToEnd.client(app, 952, "laptop");
      JsonNode replayed = ok(bob.get("/v1/conversations/" + DIRECT + "/messages?after=0"));
      assertThat(replayed).isEqualTo(pageBefore);
      assertThat(hits(app, database, redis, marker)).as("after a replay").isEmpty();
    } finally {
      app.close();
    }
  }

  /** Uploads a small PNG named {@code name} through its presigned URL; returns its key. */
  private static String upload(ApiClient client, String name) {
    JsonNode ticket = ok(client.post("/v1/uploads", "{\"size\":" + PNG.length + ",\"type\":\"image/png\",\"name\":"
        + ApiClient.JSON.valueToTree(name) + "}"));
    try {
      HttpResponse<String> put = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(ticket.get("url").asText()))
          .header("Content-Type", "image/png").PUT(HttpRequest.BodyPublishers.ofByteArray(PNG)).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(put.statusCode()).as("%s", put.body()).isEqualTo(200);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    return ticket.get("key").asText() + "\n" + name;
  }

  /** Sends an image message with the uploaded object ({@link #upload}'s answer); returns the object's key. */
  private static String sendImage(ApiClient client, String content, String uploaded) {
    String key = uploaded.substring(0, uploaded.indexOf('\n'));
    String name = uploaded.substring(uploaded.indexOf('\n') + 1);
    ApiClient.Response response = client.post("/v1/conversations/" + DIRECT + "/messages", "{\"clientMsgId\":\""
        + UUID.randomUUID() + "\",\"type\":\"image\",\"content\":\"" + content + "\",\"attachment\":{\"key\":\""
        + key + "\",\"size\":" + PNG.length + ",\"contentType\":\"image/png\",\"name\":"
        + ApiClient.JSON.valueToTree(name) + ",\"width\":1,\"height\":1}}");
    assertThat(response.status()).as("%s", response.body()).isEqualTo(200);
    assertThat(response.body().get("message").get("attachment").get("name").asText()).isEqualTo(name);
    return key;
  }

  private static void send(ApiClient client, String content) {
    ApiClient.Response response = client.post("/v1/conversations/" + DIRECT + "/messages",
        "{\"clientMsgId\":\"" + UUID.randomUUID() + "\",\"type\":\"text\",\"content\":\"" + content + "\"}");
    assertThat(response.status()).as("%s", response.body()).isEqualTo(200);
    assertThat(response.body().get("message").get("content").asText()).isEqualTo(content);
  }

  // Seqs 1..9 kept; alice's texts read as erased (her image without its attachment, her reaction
  // gone from bob's message), bob's as he wrote it, the recall as a recall.
  private static void assertPlaceholders(JsonNode page) {
    List<Long> seqs = EndToEnd.seqs(page);
    assertThat(seqs).isEqualTo(LongStream.rangeClosed(1, 9).boxed().toList());
    JsonNode messages = page.get("messages");
    for (int i : new int[] {0, 1, 2, 7, 8}) {
      assertThat(messages.get(i).get("content").asText()).isEqualTo(ContentOpener.ERASED);
    }
    assertThat(messages.get(7).has("attachment")).as("%s", messages.get(7)).isFalse();
    assertThat(messages.get(3).get("content").asText()).isEqualTo("bob keeps this");
    assertThat(messages.get(3).toString()).as("no reaction counted").doesNotContain("\"reactions\"");
    assertThat(messages.get(4).get("recalled").asBoolean()).isTrue();
  }

  /** Where {@code marker} is found: topics (raw), PostgreSQL tables (every column as text), Redis keys and values. */
  private static List<String> hits(SeqsyncApp app, Database database, JedisPooled redis, String marker) {
    List<String> hits = new ArrayList<>(hitsInTopics(app, marker));
    database.jdbi().useHandle(handle -> {
      for (String table : handle.createQuery("select table_name from information_schema.tables where table_schema ="
          + " current_schema() and table_type = 'BASE TABLE'").mapTo(String.class).list()) {
        // A bytea column shows as hex: the marker's UTF-8 in hex is looked for too.
        long found = handle.createQuery("select count(*) from " + table + " t where t::text like :marker"
            + " or t::text like :hex")
            .bind("marker", "%" + marker + "%")
            .bind("hex", "%" + java.util.HexFormat.of().formatHex(marker.getBytes(StandardCharsets.UTF_8)) + "%")
            .mapTo(Long.class).one();
        if (found > 0) {
          hits.add("table " + table + ": " + found);
        }
      }
    });
    String cursor = ScanParams.SCAN_POINTER_START;
    do {
      ScanResult<String> page = redis.scan(cursor, new ScanParams().count(1_000));
      for (String key : page.getResult()) {
        if (key.contains(marker) || redisValue(redis, key).contains(marker)) {
          hits.add("redis " + key);
        }
      }
      cursor = page.getCursor();
    } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
    return hits;
  }

  private static String redisValue(JedisPooled redis, String key) {
    return switch (redis.type(key)) {
      case "string" -> redis.get(key);
      case "hash" -> redis.hgetAll(key).toString();
      case "set" -> redis.smembers(key).toString();
      case "zset" -> redis.zrange(key, 0, -1).toString();
      case "list" -> redis.lrange(key, 0, -1).toString();
      case "stream" -> redis.xrange(key, (String) null, (String) null).toString();
      default -> "";
    };
  }

  /** Every record of every topic, from its beginning, as raw bytes: those holding the marker in UTF-8. */
  private static List<String> hitsInTopics(SeqsyncApp app, String marker) {
    List<String> hits = new ArrayList<>();
    byte[] needle = marker.getBytes(StandardCharsets.UTF_8);
    forEachRecord(app, null, record -> {
      if (contains(record.value(), needle) || contains(record.key(), needle)) {
        hits.add(record.topic() + "@" + record.partition() + ":" + record.offset());
      }
    });
    return hits;
  }

  /** The events topic decoded and opened with the key store, as text. */
  private String openedEvents(SeqsyncApp app, Database database) {
    List<Event> events = new ArrayList<>();
    forEachRecord(app, "seqsync.events", record -> events.add(EventSerdes.event().decode(record.value())));
    ContentOpener.of(EndToEnd.config(dir), database.jdbi()).open(events);
    return events.toString();
  }

  private static void forEachRecord(SeqsyncApp app, String onlyTopic,
      java.util.function.Consumer<ConsumerRecord<byte[], byte[]>> each) {
    KafkaConnection kafka = KafkaConnection.plain(app.stack().kafkaBootstrapServers());
    try (Admin admin = Admin.create(kafka.with(Map.of()));
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(kafka.with(Map.of(
            ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted")), new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
      List<TopicPartition> partitions = new ArrayList<>();
      admin.describeTopics(admin.listTopics(new org.apache.kafka.clients.admin.ListTopicsOptions().listInternal(false))
              .names().get()).allTopicNames().get()
          .forEach((name, description) -> description.partitions().forEach(partition -> {
            if (onlyTopic == null || onlyTopic.equals(name)) {
              partitions.add(new TopicPartition(name, partition.partition()));
            }
          }));
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
      while (partitions.stream().anyMatch(partition -> consumer.position(partition) < ends.get(partition))) {
        consumer.poll(Duration.ofMillis(200)).forEach(each);
      }
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static boolean contains(byte[] haystack, byte[] needle) {
    if (haystack == null) {
      return false;
    }
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  private static Database database(SeqsyncApp app) {
    return Database.open(app.stack().postgresJdbcUrl(), app.stack().postgresUser(), app.stack().postgresPassword(), 1);
  }
}
