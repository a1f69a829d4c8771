package io.seqsync.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqsync.store.ServerRequestQueries.Claim;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The server API's idempotency keys in PostgreSQL: claimed once, answered, given up, expired after their window. */
class ServerRequestQueriesTest {
  @RegisterExtension
  static final TestDatabases databases = new TestDatabases("server_requests");

  @Test
  void aKeyIsClaimedOnceThenHoldsItsAnswer() {
    ServerRequestQueries requests = new ServerRequestQueries(databases.database().jdbi());
    assertThat(requests.claim("backend", "k1", "f1")).isEmpty();
    Claim running = requests.claim("backend", "k1", "f1").orElseThrow();
    assertThat(running.answered()).isFalse();

    requests.answer("backend", "k1", 201, "{\"convId\":\"g:x\"}".getBytes(StandardCharsets.UTF_8));
    Claim answered = requests.claim("backend", "k1", "f1").orElseThrow();
    assertThat(answered.status()).isEqualTo(201);
    assertThat(new String(answered.body(), StandardCharsets.UTF_8)).isEqualTo("{\"convId\":\"g:x\"}");
    assertThat(requests.claim("backend", "k1", "other").orElseThrow().fingerprint()).isEqualTo("f1");
    assertThat(requests.claim("another-service", "k1", "f1")).as("keys are per service").isEmpty();
  }

  @Test
  void aGivenUpKeyIsClaimedAgainButAnAnsweredOneIsNot() {
    ServerRequestQueries requests = new ServerRequestQueries(databases.database().jdbi());
    assertThat(requests.claim("backend", "k2", "f")).isEmpty();
    requests.release("backend", "k2");
    assertThat(requests.claim("backend", "k2", "f")).isEmpty();
    requests.answer("backend", "k2", 200, new byte[0]);
    requests.release("backend", "k2");
    assertThat(requests.claim("backend", "k2", "f")).map(Claim::status).contains(200);
  }

  @Test
  void keysPastTheirWindowAreClaimedAnewAndExpire() {
    Jdbi jdbi = databases.database().jdbi();
    ServerRequestQueries requests = new ServerRequestQueries(jdbi);
    requests.claim("backend", "old", "f1");
    requests.answer("backend", "old", 200, new byte[0]);
    requests.claim("backend", "older", "f1");
    requests.claim("backend", "fresh", "f1");
    jdbi.useHandle(handle -> handle.execute("update server_requests set created_at = now() - interval '25 hours'"
        + " where request_key in ('old', 'older')"));

    assertThat(requests.claim("backend", "old", "f2")).as("its window passed: a new request").isEmpty();
    assertThat(requests.claim("backend", "old", "f2")).map(Claim::fingerprint).isEqualTo(Optional.of("f2"));
    assertThat(requests.expire()).isEqualTo(1);
    assertThat(requests.claim("backend", "fresh", "f1")).isPresent();
  }
}
