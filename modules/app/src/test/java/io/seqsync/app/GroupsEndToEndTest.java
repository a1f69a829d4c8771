package io.seqsync.app;

import static io.seqsync.app.EndToEnd.await;
import static io.seqsync.app.EndToEnd.awaitActivation;
import static io.seqsync.app.EndToEnd.awaitUnread;
import static io.seqsync.app.EndToEnd.entry;
import static io.seqsync.app.EndToEnd.ok;
import static io.seqsync.app.EndToEnd.send;
import static io.seqsync.app.EndToEnd.seqs;
import static io.seqsync.testkit.StreamClient.ofType;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.seqsync.testkit.ApiClient;
import io.seqsync.testkit.StreamClient;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.JedisPooled;

/**
 * Groups: creation, membership as ordered system messages, history from the joining notice on,
 * removal, roles and settings, ownership passing on, blocks, and fan-out to a 2,000-member group,
 * over real HTTP and WebSockets on the real stack.
 */
class GroupsEndToEndTest extends EndToEndTest {
  private static final Duration FRAME = Duration.ofSeconds(10);

  @Test
  void membersSeeHistoryFromTheirJoiningNoticeAndRemovedMembersLoseAccess() {
    ApiClient owner = client(501, "phone");
    ApiClient member = client(502, "laptop");
    ApiClient leaver = client(503, "phone");
    ApiClient newcomer = client(504, "phone");
    JsonNode created = created(owner.post("/v1/groups", "{\"name\":\" Team \",\"members\":[\"502\",503]}"));
    String group = created.get("convId").asText();
    assertThat(group).matches("g:[A-Za-z0-9_-]{22}");
    assertThat(created.get("name").asText()).isEqualTo("Team");
    assertThat(created.get("notice").get("seq").asLong()).isEqualTo(1);
    assertThat(created.get("notice").get("type").asText()).isEqualTo("system");

    send(owner, group, 3);                                                  // seqs 2-4
    JsonNode added = changed(owner.post(members(group), "{\"add\":[\"504\"]}"), "applied");
    assertThat(added.get("notice").get("seq").asLong()).isEqualTo(5);
    assertThat(added.get("added")).extracting(JsonNode::asText).containsExactly("504");

    // History starts at the joining notice, whichever way the newcomer pages.
    assertThat(seqs(ok(newcomer.get(messages(group))))).containsExactly(5L);
    assertThat(seqs(ok(newcomer.get(messages(group) + "?after=0")))).containsExactly(5L);
    JsonNode last = ok(newcomer.get(messages(group) + "?last=20"));
    assertThat(seqs(last)).containsExactly(5L);
    assertThat(last.get("hasMore").asBoolean()).isFalse();
    assertThat(seqs(ok(newcomer.get(messages(group) + "?before=5")))).isEmpty();
    assertThat(seqs(ok(member.get(messages(group) + "?after=0")))).containsExactly(1L, 2L, 3L, 4L, 5L);

    send(owner, group, 2);                                                  // seqs 6-7
    awaitUnread(newcomer, group, 2);
    assertThat(awaitUnread(member, group, 5).get("name").asText()).isEqualTo("Team");
    try (JedisPooled redis = new JedisPooled(URI.create(app.stack().redisUri()))) {
      redis.flushAll();
    }
    // Rebuilt from PostgreSQL: the group is listed again, history before the join still not unread.
    assertThat(entry(newcomer, group).get("unread").asLong()).isEqualTo(2);
    assertThat(entry(member, group).get("unread").asLong()).isEqualTo(5);
    assertThat(entry(member, group).get("name").asText()).isEqualTo("Team");
    JsonNode activation = awaitActivation(newcomer, group, a -> a.get("latestSeq").asLong() == 7);
    assertThat(activation.get("kind").asText()).isEqualTo("group");
    assertThat(activation.get("name").asText()).isEqualTo("Team");
    assertThat(activation.get("readSeq").asLong()).isEqualTo(5);
    assertThat(activation.get("members")).extracting(JsonNode::asText).containsExactly("501", "502", "503", "504");

    assertError(member.post(members(group), "{\"remove\":[\"503\"]}"), 403, "not_admin");
    changed(owner.post(members(group), "{\"remove\":[\"503\"]}"), "applied");
    assertError(leaver.get(messages(group)), 403, "not_a_member");
    assertError(leaver.post(messages(group), "{\"clientMsgId\":\"x\",\"type\":\"text\",\"content\":\"hi\"}"),
        403, "not_a_member");
    assertError(leaver.post("/v1/acks", "{\"acks\":[{\"convId\":\"" + group + "\",\"seq\":7}]}"), 403, "not_a_member");
    await(() -> ok(leaver.get("/v1/conversations")), list -> entry(leaver, group) == null);

    changed(member.post(members(group), "{\"remove\":[\"502\"]}"), "applied"); // anyone may leave
    assertError(member.get(messages(group)), 403, "not_a_member");
    changed(owner.post(members(group), "{\"add\":[\"504\"]}"), "unchanged");
    assertThat(seqs(ok(owner.get(messages(group) + "?after=7"))))
        .as("a notice per change, none for the unchanged one").containsExactly(8L, 9L);
  }

  @Test
  void groupRequestsAreCheckedBeforeAnythingIsWritten() {
    ApiClient owner = client(511, "phone");
    assertError(owner.post("/v1/groups", "{\"members\":[\"512\"]}"), 400, "missing_field");
    assertError(owner.post("/v1/groups", "{\"name\":\"  \",\"members\":[\"512\"]}"), 400, "invalid_field");
    assertError(owner.post("/v1/groups", "{\"name\":\"x\",\"members\":[\"0512\"]}"), 400, "invalid_field");
    assertError(owner.post("/v1/groups", "{\"name\":\"x\",\"members\":[-3]}"), 400, "invalid_field");
    assertError(owner.post("/v1/groups", "{\"name\":\"x\",\"members\":\"512\"}"), 400, "invalid_field");
    assertError(owner.post(members("d:511:512"), "{\"add\":[\"513\"]}"), 400, "not_a_group");
    assertError(owner.post(members("g:nosuchgroup"), "{\"add\":[\"513\"]}"), 404, "no_such_conversation");
    String group = created(owner.post("/v1/groups", "{\"name\":\"Pair\",\"members\":[]}")).get("convId").asText();
    assertError(owner.post(members(group), "{}"), 400, "invalid_field");
    assertError(owner.post(members(group), "{\"add\":[\"513\"],\"remove\":[\"513\"]}"), 400, "invalid_field");
    assertError(client(599, "phone").post(members(group), "{\"add\":[\"599\"]}"), 403, "not_a_member");
    assertThat(seqs(ok(owner.get(messages(group) + "?after=0")))).containsExactly(1L);
  }

  @Test
  void aTwoThousandMemberGroupGetsEveryMessageOnceInOrder() {
    long ownerId = 20_000;
    ApiClient owner = client(ownerId, "phone");
    // A request adds at most groups.max-added-per-request (100) users: the group grows 100 at a time.
    String group = created(owner.post("/v1/groups", "{\"name\":\"Everyone\",\"members\":[" + ids(ownerId + 1, 99) + "]}"))
        .get("convId").asText();
    for (long first = ownerId + 100; first < ownerId + 2_000; first += 100) {
      changed(owner.post(members(group), "{\"add\":[" + ids(first, 100) + "]}"), "applied");
    }
    long built = 20; // the creation notice and 19 additions
    long[] listeners = {ownerId + 1, ownerId + 1_000, ownerId + 1_999};
    List<StreamClient> streams = new ArrayList<>();
    try {
      for (long userId : listeners) {
        StreamClient stream = StreamClient.withHeader(app.httpPort(), EndToEnd.token(app, userId, "phone"));
        streams.add(stream);
        stream.next(ofType("sync"), FRAME);
      }
      long started = System.nanoTime();
      double[] indexBefore = listenerTime("ConversationIndexer");
      double[] pushBefore = listenerTime("PushPublisher");
      send(owner, group, 20);                                              // seqs 21-40
      for (StreamClient stream : streams) {
        List<Long> pushed = new ArrayList<>();
        while (pushed.size() < 20) {
          long seq = stream.next(ofType("message"), FRAME).get("message").get("seq").asLong();
          if (seq > built || !pushed.isEmpty()) { // the building notices may be pushed after the socket opened
            pushed.add(seq);
          }
        }
        assertThat(pushed).isEqualTo(LongStream.rangeClosed(built + 1, built + 20).boxed().toList());
      }
      double[] index = listenerTime("ConversationIndexer");
      double[] push = listenerTime("PushPublisher");
      // The fan-out cost per committed batch (docs/design.md); printed, not asserted: timings are the benchmark's.
      System.out.printf("2,000-member group: 20 sends answered and pushed to 3 watched members in %d ms;"
              + " per batch: Redis index %.2f ms, push %.2f ms over %.0f batches%n",
          Duration.ofNanos(System.nanoTime() - started).toMillis(),
          1000 * (index[0] - indexBefore[0]) / (index[1] - indexBefore[1]),
          1000 * (push[0] - pushBefore[0]) / (push[1] - pushBefore[1]), push[1] - pushBefore[1]);
    } finally {
      streams.forEach(StreamClient::close);
    }
    ApiClient last = client(ownerId + 1_999, "tablet");
    assertThat(awaitUnread(last, group, 20).get("latestSeq").asLong()).isEqualTo(built + 20);
    assertThat(awaitActivation(last, group, a -> a.get("unread").asLong() == 20).get("members")).hasSize(2_000);
  }

  @Test
  void aPlainMemberCannotAddMembersAndNothingIsApplied() {
    ApiClient owner = client(521, "phone");
    ApiClient admin = client(522, "laptop");
    ApiClient plain = client(523, "phone");
    String group = group(owner, 522, 523);
    JsonNode before = ok(plain.get("/v1/conversations/" + group));
    assertThat(before.get("roles").toString()).isEqualTo("{\"521\":\"owner\"}");
    assertThat(before.get("settings").get("membersCanInvite").asBoolean()).isFalse();

    assertError(plain.post(members(group), "{\"add\":[\"524\",\"525\"]}"), 403, "not_admin");
    assertError(plain.put(roles(group, 523), "{\"role\":\"admin\"}"), 403, "not_owner");
    assertError(plain.put(settings(group), "{\"membersCanInvite\":true}"), 403, "not_admin");
    assertThat(seqs(ok(owner.get(messages(group) + "?after=0")))).as("nothing applied").containsExactly(1L);
    assertThat(ok(owner.get("/v1/conversations/" + group)).get("members")).extracting(JsonNode::asText)
        .containsExactly("521", "522", "523");

    try (StreamClient stream = StreamClient.withHeader(app.httpPort(), EndToEnd.token(app, 523, "tablet"))) {
      stream.next(ofType("sync"), FRAME);
      JsonNode named = changed(owner.put(roles(group, 522), "{\"role\":\"admin\"}"), "applied");
      assertThat(named.get("notice").get("content").asText())
          .isEqualTo("{\"event\":\"roles\",\"by\":\"521\",\"roles\":{\"522\":\"admin\"}}");
      JsonNode frame = stream.next(ofType("membership"), FRAME);
      assertThat(frame.get("roles").toString()).isEqualTo("{\"522\":\"admin\"}");
    }
    assertThat(ok(plain.get("/v1/conversations/" + group)).get("roles").toString())
        .isEqualTo("{\"521\":\"owner\",\"522\":\"admin\"}");
    changed(admin.post(members(group), "{\"add\":[\"524\"]}"), "applied");
    assertError(admin.post(members(group), "{\"remove\":[\"521\"]}"), 403, "not_owner");

    changed(owner.put(settings(group), "{\"membersCanInvite\":true}"), "applied");
    assertThat(ok(plain.get("/v1/conversations/" + group)).get("settings").get("membersCanInvite").asBoolean()).isTrue();
    changed(plain.post(members(group), "{\"add\":[\"525\"]}"), "applied");
    assertError(plain.post(members(group), "{\"remove\":[\"525\"]}"), 403, "not_admin");
  }

  @Test
  void ownershipPassesToTheOldestAdminThenTheOldestMemberWhenTheOwnerLeaves() {
    ApiClient owner = client(531, "phone");
    ApiClient first = client(532, "phone");
    ApiClient admin = client(533, "phone");
    String group = group(owner, 532, 533);
    changed(owner.put(roles(group, 533), "{\"role\":\"admin\"}"), "applied");

    try (StreamClient stream = StreamClient.withHeader(app.httpPort(), EndToEnd.token(app, 532, "tablet"))) {
      stream.next(ofType("sync"), FRAME);
      JsonNode left = changed(owner.post("/v1/conversations/" + group + "/leave", ""), "applied");
      assertThat(left.get("removed")).extracting(JsonNode::asText).containsExactly("531");
      assertThat(left.get("notice").get("content").asText()).contains("\"roles\":{\"533\":\"owner\"}");
      JsonNode frame = stream.next(ofType("membership"), FRAME);
      assertThat(frame.get("removed")).extracting(JsonNode::asText).containsExactly("531");
      assertThat(frame.get("roles").toString()).isEqualTo("{\"533\":\"owner\"}");
    }
    assertThat(ok(first.get("/v1/conversations/" + group)).get("roles").toString()).isEqualTo("{\"533\":\"owner\"}");
    assertError(owner.get(messages(group)), 403, "not_a_member");

    changed(admin.post(members(group), "{\"remove\":[\"533\"]}"), "applied");
    assertThat(ok(first.get("/v1/conversations/" + group)).get("roles").toString()).isEqualTo("{\"532\":\"owner\"}");
    changed(first.post(members(group), "{\"add\":[\"534\"]}"), "applied");
    changed(first.put(roles(group, 534), "{\"role\":\"owner\"}"), "applied");
    assertThat(ok(first.get("/v1/conversations/" + group)).get("roles").toString())
        .isEqualTo("{\"532\":\"admin\",\"534\":\"owner\"}");
  }

  @Test
  void aBlockedUsersDirectSendIsRefusedAndTheyCannotAddTheBlocker() {
    ApiClient blocker = client(541, "phone");
    ApiClient blocked = client(542, "phone");
    String direct = "d:541:542";
    send(blocked, direct, 1);                                                // seq 1
    assertThat(ok(blocker.put("/v1/blocks/542", "")).get("status").asText()).isEqualTo("applied");
    assertThat(ok(blocker.put("/v1/blocks/542", "")).get("status").asText()).isEqualTo("unchanged");
    assertThat(ok(blocker.get("/v1/blocks")).get("blocks")).extracting(b -> b.get("userId").asText())
        .containsExactly("542");

    assertError(blocked.post(messages(direct), "{\"clientMsgId\":\"b-1\",\"type\":\"text\",\"content\":\"hi\"}"),
        403, "blocked");
    send(blocker, direct, 1);                                                // seq 2: the blocker still writes
    assertThat(seqs(ok(blocker.get(messages(direct) + "?after=0")))).containsExactly(1L, 2L);
    assertError(blocked.post("/v1/groups", "{\"name\":\"x\",\"members\":[\"541\"]}"), 403, "blocked");
    String group = created(blocked.post("/v1/groups", "{\"name\":\"Mine\",\"members\":[]}")).get("convId").asText();
    assertError(blocked.post(members(group), "{\"add\":[\"541\"]}"), 403, "blocked");
    assertThat(ok(blocked.get("/v1/blocks")).get("blocks")).as("a block is the blocker's to see").isEmpty();
    assertError(blocker.put("/v1/blocks/541", ""), 400, "invalid_parameter");
    assertError(blocker.put("/v1/blocks/x", ""), 400, "invalid_parameter");

    assertThat(ok(blocker.delete("/v1/blocks/542")).get("status").asText()).isEqualTo("applied");
    send(blocked, direct, 1);                                                // seq 3
  }

  // {seconds, batches} the projector's commit listener has spent so far, from /metrics.
  private static double[] listenerTime(String listener) {
    String label = "listener=\"" + listener + "\"";
    return new double[] {EndToEnd.metric(app, "seqsync_projector_listener_latency_seconds_sum", label),
        EndToEnd.metric(app, "seqsync_projector_listener_latency_seconds_count", label)};
  }

  private static String group(ApiClient owner, long... members) {
    String ids = LongStream.of(members).mapToObj(id -> "\"" + id + "\"").collect(Collectors.joining(","));
    return created(owner.post("/v1/groups", "{\"name\":\"Team\",\"members\":[" + ids + "]}")).get("convId").asText();
  }

  private static String ids(long first, int count) {
    return LongStream.range(first, first + count).mapToObj(id -> "\"" + id + "\"").collect(Collectors.joining(","));
  }

  private static String messages(String group) {
    return "/v1/conversations/" + group + "/messages";
  }

  private static String roles(String group, long userId) {
    return "/v1/conversations/" + group + "/roles/" + userId;
  }

  private static String settings(String group) {
    return "/v1/conversations/" + group + "/settings";
  }

  private static String members(String group) {
    return "/v1/conversations/" + group + "/members";
  }

  private static JsonNode created(ApiClient.Response response) {
    assertThat(response.status()).as("%s", response.body()).isEqualTo(201);
    assertThat(response.body().get("status").asText()).isEqualTo("created");
    return response.body();
  }

  private static JsonNode changed(ApiClient.Response response, String status) {
    assertThat(response.status()).as("%s", response.body()).isEqualTo(202);
    assertThat(response.body().get("status").asText()).isEqualTo(status);
    return response.body();
  }

  private static void assertError(ApiClient.Response response, int status, String code) {
    assertThat(response.status()).as("%s", response.body()).isEqualTo(status);
    assertThat(response.body().get("error").get("code").asText()).isEqualTo(code);
  }
}
