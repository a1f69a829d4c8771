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
 * published: the size limit (10,000 by default), the owner rule and changes that change nobody.
 * Kafka is unreachable here, so any request that got as far as publishing would be a 503.
 */
class GroupLimitsApiTest {
  private static final String GROUP = "g:full";
  private static final String MEMBERS = "/v1/conversations/" + GROUP + "/members";
  private static final int MAX_MEMBERS = 10_000; // the default of sequencer.max-group-members

  // One app for both tests: the full group's rows are written once.
  @RegisterExtension
  static final FetchStackExtension stack = FetchStackExtension.appPerClass(Map.of());

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
    assertError(test.http.post(MEMBERS, test.token(2, "phone"), "{\"remove\":[\"3\"]}"), 403, "not_owner");
    Http.Response unchanged = test.http.post(MEMBERS, test.token(1, "phone"), "{\"add\":[\"3\"],\"remove\":[\"20001\"]}");
    assertThat(unchanged.status()).isEqualTo(202);
    assertThat(unchanged.json().get("status").asText()).isEqualTo("unchanged");
  }

  private static void assertError(Http.Response response, int status, String code) {
    assertThat(response.status()).as("%s", response.body()).isEqualTo(status);
    assertThat(response.errorCode()).isEqualTo(code);
  }
}
