package io.seqsync.app;

import static io.seqsync.app.EndToEnd.accepted;
import static io.seqsync.app.EndToEnd.await;
import static io.seqsync.app.EndToEnd.awaitActivation;
import static io.seqsync.app.EndToEnd.ok;
import static io.seqsync.app.EndToEnd.send;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.seqsync.config.KafkaConnection;
import io.seqsync.projector.replay.ProjectionReplay;
import io.seqsync.store.Database;
import io.seqsync.testkit.ApiClient;
import java.net.URI;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.JedisPooled;

/**
 * Replay (D5) on the real stack: a history of sends, a recall, an ack, a read report, a draft, a
 * group and delivery reports; the projection is then damaged, the app stopped, and
 * {@link ProjectionReplay} rebuilds PostgreSQL and Redis from the topics. Every projection table
 * and every answer of the API is then as it was before the damage. While the app runs, a replay
 * is refused and changes nothing.
 */
class ReplayEndToEndTest {
  private static final String DIRECT = "d:901:902";

  @TempDir Path dir;

  @Test
  void aReplayRebuildsEveryProjectionAsItWasFromTheTopics() {
    String today = LocalDate.now(ZoneOffset.UTC).toString();
    String figures = "/ops/delivery?from=" + today + "&to=" + LocalDate.now(ZoneOffset.UTC).plusDays(1);
    Map<String, String> tablesBefore;
    Map<String, JsonNode> answersBefore;
    String group;

    SeqsyncApp app = EndToEnd.start(dir);
    try {
      ApiClient alice = EndToEnd.client(app, 901, "phone");
      ApiClient bob = EndToEnd.client(app, 902, "laptop");
      List<JsonNode> sent = send(alice, DIRECT, 12);
      send(bob, DIRECT, 3);
      ok(alice.post("/v1/conversations/" + DIRECT + "/messages/4/recall", ""));
      accepted(bob.post("/v1/acks", "{\"acks\":[{\"convId\":\"" + DIRECT + "\",\"seq\":10}]}"));
      accepted(alice.post("/v1/reads", "{\"convId\":\"" + DIRECT + "\",\"seq\":14}"));
      accepted(bob.put("/v1/conversations/" + DIRECT + "/draft", "{\"text\":\"half a thought\"}"));
      ApiClient.Response created = alice.post("/v1/groups", "{\"name\":\"trio\",\"members\":[\"902\",\"903\"]}");
      assertThat(created.status()).as("%s", created.body()).isEqualTo(201);
      group = created.body().get("convId").asText();
      send(alice, group, 2);
      // Roles, settings and a block are projections too: two more notices, a blocks row.
      assertThat(alice.put("/v1/conversations/" + group + "/roles/902", "{\"role\":\"admin\"}").status()).isEqualTo(202);
      assertThat(alice.put("/v1/conversations/" + group + "/settings", "{\"membersCanInvite\":true}").status())
          .isEqualTo(202);
      ok(alice.put("/v1/blocks/904", ""));
      long createTime = sent.get(0).get("createTime").asLong();
      accepted(bob.post("/v1/telemetry/rendered", "{\"items\":[" + rendered(sent.get(0), createTime + 300)
          + "," + rendered(sent.get(1), createTime + 60_000) + "]}"));
      accepted(bob.post("/v1/telemetry/failures", "{\"items\":[{\"msgId\":\"" + sent.get(2).get("msgId").asText()
          + "\",\"convId\":\"" + DIRECT + "\",\"seq\":3,\"reason\":\"unsupported\"}]}"));

      ApiClient operator = EndToEnd.operator(app);
      awaitActivation(bob, DIRECT, activation -> activation.get("readSeq").asLong() == 15
          && activation.get("deviceCursor").asLong() == 10 && activation.get("latestSeq").asLong() == 16);
      await(() -> ok(operator.get(figures)), answer -> answer.get("cases").size() == 2 && answer.get("delivered").asLong() == 2);

      try (Database database = database(app); JedisPooled redis = new JedisPooled(URI.create(app.stack().redisUri()))) {
        ProjectionReplay whileRunning =
            new ProjectionReplay(KafkaConnection.plain(app.stack().kafkaBootstrapServers()), EndToEnd.config(dir), database, redis);
        assertThatThrownBy(whileRunning::replay).isInstanceOf(ProjectionReplay.Refused.class)
            .hasMessageContaining("seqsync-projector");
        tablesBefore = tables(database);
        assertThat(tablesBefore.get("messages").lines()).as("nothing emptied").hasSize(21);
        answersBefore = answers(bob, alice, operator, group, figures);
        database.jdbi().useHandle(handle -> {
          handle.execute("delete from messages where conv_id = ? and seq > 10", DIRECT);
          handle.execute("update messages set content = 'tampered' where conv_id = ? and seq = 1", DIRECT);
          handle.execute("update conversations set latest_seq = 3 where conv_id = ?", DIRECT);
          handle.execute("delete from message_renders");
          handle.execute("delete from read_positions");
        });
        assertThat(tables(database)).isNotEqualTo(tablesBefore);
      }
    } finally {
      app.close();
    }

    ProjectionReplay.Summary summary = ProjectionReplay.run(EndToEnd.config(dir));
    assertThat(summary.tables()).contains("messages", "conversations", "device_cursors", "read_positions", "drafts",
        "projector_offsets", "message_renders", "delivery_cases", "archived_messages", "blocks").doesNotContain("schema_migrations");
    assertThat(summary.messages()).isEqualTo(21);
    assertThat(summary.renders()).isEqualTo(2);
    assertThat(summary.deliveryCases()).isEqualTo(2);

    app = EndToEnd.start(dir);
    try (Database database = database(app)) {
      assertThat(tables(database)).isEqualTo(tablesBefore);
      ApiClient alice = EndToEnd.client(app, 901, "phone");
      ApiClient bob = EndToEnd.client(app, 902, "laptop");
      assertThat(answers(bob, alice, EndToEnd.operator(app), group, figures)).isEqualTo(answersBefore);
      JsonNode next = send(bob, DIRECT, 1).get(0);
      assertThat(next.get("seq").asLong()).as("the sequencer's state was never a projection").isEqualTo(17);
    } finally {
      app.close();
    }
  }

  private static Database database(SeqsyncApp app) {
    return Database.open(app.stack().postgresJdbcUrl(), app.stack().postgresUser(), app.stack().postgresPassword(), 1);
  }

  /** What the API answers about this history: pages, activation, the list with unread counts and drafts, delivery. */
  private static Map<String, JsonNode> answers(ApiClient bob, ApiClient alice, ApiClient operator, String group,
      String figures) {
    Map<String, JsonNode> answers = new LinkedHashMap<>();
    answers.put("page", ok(bob.get("/v1/conversations/" + DIRECT + "/messages?after=0")));
    answers.put("activation", ok(bob.get("/v1/conversations/" + DIRECT)));
    answers.put("bob's list", ok(bob.get("/v1/conversations?limit=100")));
    answers.put("alice's list", ok(alice.get("/v1/conversations?limit=100")));
    answers.put("group page", ok(alice.get("/v1/conversations/" + group + "/messages?last=20")));
    answers.put("delivery", ok(operator.get(figures)));
    return answers;
  }

  /** Every projection table's rows, as sorted JSON lines. */
  private static Map<String, String> tables(Database database) {
    return database.jdbi().withHandle(handle -> {
      Map<String, String> rows = new LinkedHashMap<>();
      for (String table : handle.createQuery("select table_name from information_schema.tables where table_schema ="
          + " current_schema() and table_type = 'BASE TABLE' and table_name <> 'schema_migrations' order by 1")
          .mapTo(String.class).list()) {
        rows.put(table, handle.createQuery("select coalesce(string_agg(row, E'\\n' order by row), '') from"
            + " (select to_jsonb(t)::text as row from " + table + " t) rows").mapTo(String.class).one());
      }
      return rows;
    });
  }

  private static String rendered(JsonNode message, long renderTime) {
    return "{\"msgId\":\"" + message.get("msgId").asText() + "\",\"convId\":\"" + DIRECT + "\",\"seq\":"
        + message.get("seq").asLong() + ",\"sendTime\":" + (message.get("createTime").asLong() - 40)
        + ",\"renderTime\":" + renderTime + "}";
  }
}
