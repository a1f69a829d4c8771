package io.seqsync.ingress;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The group checks the ingress makes against the committed projection before anything is
 * published: the size limit (10,000 by default), users added per request, groups per user (3
 * here), blocks, the roles and changes that change nobody. Kafka is unreachable here, so any
 * request that got as far as publishing would be a 503.
 */
class GroupLimitsApiTest {
  private static final String GROUP = "g:full";
  private static final String MEMBERS = "/v1/conversations/" + GROUP + "/members";
  private static final int MAX_MEMBERS = 10_000; // the default of sequencer.max-group-members
  private static final String SMALL = "g:small";

  // One app for both tests: the full group's rows are written once.
  @RegisterExtension
  static final FetchStackExtension stack = FetchStackExtension.appPerClass(Map.of("groups.max-per-user", "3"));

  private static TestApp test;

  @BeforeAll
  static void rows() {
    test = stack.app();
    test.rows.conversation(GROUP);
    test.database.jdbi().useHandle(handle -> {
      handle.execute("update conversations set owner_id = 1 where conv_id = ?", GROUP);
      handle.execute("insert into conversation_members (conv_id, user_id, joined_seq)"
          + " select ?, id, 1 from generate_series(1, ?) as id", GROUP, MAX_MEMBERS);
    });
    // User 30001 is in 3 groups (the most here), user 40001 blocked user 1; 1 owns SMALL with 2 in it.
    test.rows.conversation(SMALL, 1, 2).conversation("g:a", 30001).conversation("g:b", 30001).conversation("g:c", 30001);
    test.database.jdbi().useHandle(handle -> {
      handle.execute("update conversations set owner_id = 1 where conv_id = ?", SMALL);
      handle.execute("insert into blocks (blocker_id, blocked_id, since) values (40001, 1, 0)");
    });
  }

  @Test
  void aFullGroupTakesNobodyMoreAndAnOversizedGroupIsNeverCreated() {
    String owner = test.token(1, "phone");
    assertError(test.http.post(MEMBERS, owner, "{\"add\":[\"20000\"]}"), 409, "group_full");
    String others = LongStream.rangeClosed(2, MAX_MEMBERS + 1)
        .mapToObj(id -> "\"" + id + "\"").collect(Collectors.joining(","));
    assertError(test.http.post("/v1/groups", owner, "{\"name\":\"big\",\"members\":[" + others + "]}"),
        413, "too_many_members");
  }

  @Test
  void onlyTheOwnerRemovesOthersAndAChangeOfNobodyIsUnchanged() {
    assertError(test.http.post(MEMBERS, test.token(2, "phone"), "{\"remove\":[\"3\"]}"), 403, "not_admin");
    Http.Response unchanged = test.http.post(MEMBERS, test.token(1, "phone"), "{\"add\":[\"3\"],\"remove\":[\"20001\"]}");
    assertThat(unchanged.status()).isEqualTo(202);
    assertThat(unchanged.json().get("status").asText()).isEqualTo("unchanged");
  }

  @Test
  void aPlainMemberNeitherAddsNorGivesRolesNorChangesSettings() {
    String member = test.token(2, "phone");
    String small = "/v1/conversations/" + SMALL;
    assertError(test.http.post(small + "/members", member, "{\"add\":[\"7\"]}"), 403, "not_admin");
    assertError(test.http.put(small + "/roles/2", member, "{\"role\":\"admin\"}"), 403, "not_owner");
    assertError(test.http.put(small + "/settings", member, "{\"membersCanInvite\":true}"), 403, "not_admin");
    assertError(test.http.post(small + "/members", member, "{\"remove\":[\"1\"]}"), 403, "not_admin");
    String owner = test.token(1, "phone");
    assertError(test.http.put(small + "/roles/9", owner, "{\"role\":\"admin\"}"), 404, "no_such_member");
    assertError(test.http.put(small + "/roles/2", owner, "{\"role\":\"boss\"}"), 400, "invalid_field");
    assertError(test.http.put(small + "/settings", owner, "{\"membersCanInvite\":\"yes\"}"), 400, "invalid_field");
    Http.Response unchanged = test.http.put(small + "/roles/2", owner, "{\"role\":\"member\"}");
    assertThat(unchanged.status()).isEqualTo(202);
    assertThat(unchanged.json().get("status").asText()).isEqualTo("unchanged");
  }

  @Test
  void aRequestAddsAtMostAHundredAndNobodyJoinsMoreThanTheMostGroupsOrABlocker() {
    String owner = test.token(1, "phone");
    String small = "/v1/conversations/" + SMALL + "/members";
    String hundredAndOne = LongStream.rangeClosed(50_001, 50_101)
        .mapToObj(id -> "\"" + id + "\"").collect(Collectors.joining(","));
    assertError(test.http.post(small, owner, "{\"add\":[" + hundredAndOne + "]}"), 413, "too_many_members");
    assertError(test.http.post("/v1/groups", owner, "{\"name\":\"x\",\"members\":[" + hundredAndOne + "]}"),
        413, "too_many_members");
    assertError(test.http.post(small, owner, "{\"add\":[\"30001\"]}"), 409, "too_many_groups");
    assertError(test.http.post("/v1/groups", owner, "{\"name\":\"x\",\"members\":[\"30001\"]}"), 409, "too_many_groups");
    assertError(test.http.post("/v1/groups", test.token(30001, "phone"), "{\"name\":\"x\",\"members\":[]}"),
        409, "too_many_groups");
    assertError(test.http.post(small, owner, "{\"add\":[\"40001\"]}"), 403, "blocked");
    assertError(test.http.post("/v1/groups", owner, "{\"name\":\"x\",\"members\":[\"40001\"]}"), 403, "blocked");
  }

  private static void assertError(Http.Response response, int status, String code) {
    assertThat(response.status()).as("%s", response.body()).isEqualTo(status);
    assertThat(response.errorCode()).isEqualTo(code);
  }
}
