package io.seqsync.app;

import static io.seqsync.app.EndToEnd.ok;
import static io.seqsync.app.EndToEnd.send;
import static io.seqsync.app.EndToEnd.seqs;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.seqsync.projector.postgres.MessageArchive;
import io.seqsync.store.Database;
import io.seqsync.testkit.ApiClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The hot and cold tiers over real HTTP on the real stack (R22): once the archive job has moved a
 * conversation's older messages, a fetch that reaches below the hot tier says so
 * ({@code archiveHint}) and the archive API pages them, newest first, members only.
 */
// Its own app: the archive job moves, and the test counts, every message the app holds.
@EndToEndApps.OwnApp
class ArchiveEndToEndTest extends EndToEndTest {
  private static final String CONV = "d:801:802";

  @Test
  void aFetchBelowTheHotTierPointsToTheArchiveWhichPagesNewestFirst() {
    ApiClient alice = client(801, "phone");
    ApiClient bob = client(802, "laptop");
    send(alice, CONV, 30);
    // 46 days on, everything sent today is older than the 45 hot days.
    try (Database database = Database.open(app.stack().postgresJdbcUrl(), app.stack().postgresUser(),
        app.stack().postgresPassword(), 1)) {
      MessageArchive.Moved moved = new MessageArchive(database.jdbi(), 45).run(Instant.now().plus(Duration.ofDays(46)));
      assertThat(moved.messages()).isEqualTo(30);
    }
    send(alice, CONV, 5);

    JsonNode fromStart = ok(bob.get("/v1/conversations/" + CONV + "/messages?after=0"));
    assertThat(seqs(fromStart)).containsExactly(31L, 32L, 33L, 34L, 35L);
    assertThat(fromStart.get("archiveHint").get("convId").asText()).isEqualTo(CONV);
    assertThat(fromStart.get("archiveHint").get("archivedSeq").asLong()).isEqualTo(30);
    JsonNode latest = ok(bob.get("/v1/conversations/" + CONV + "/messages?last=20"));
    assertThat(latest.get("hasMore").asBoolean()).isFalse();
    assertThat(latest.get("archiveHint").get("archivedSeq").asLong()).isEqualTo(30);
    assertThat(ok(bob.get("/v1/conversations/" + CONV + "/messages?after=31")).has("archiveHint")).isFalse();

    JsonNode newest = ok(bob.get("/v1/archive/messages?convId=" + CONV + "&limit=20"));
    assertThat(seqs(newest)).containsExactlyElementsOf(range(30, 11));
    assertThat(newest.get("hasMore").asBoolean()).isTrue();
    assertThat(newest.get("messages").get(0).get("content").asText()).isEqualTo("m30");
    JsonNode older = ok(bob.get("/v1/archive/messages?convId=" + CONV + "&limit=20&beforeSeq="
        + newest.get("nextBeforeSeq").asLong() + "&before=" + (newest.get("nextBefore").asLong() + 1)));
    assertThat(seqs(older)).containsExactlyElementsOf(range(10, 1));
    assertThat(older.get("hasMore").asBoolean()).isFalse();
    assertThat(older.has("nextBeforeSeq")).isFalse();

    assertThat(client(803, "phone").get("/v1/archive/messages?convId=" + CONV).status()).isEqualTo(403);
    assertThat(bob.get("/v1/archive/messages").status()).isEqualTo(400);
    assertThat(bob.get("/v1/archive/messages?convId=" + CONV + "&limit=51").status()).isEqualTo(400);
    assertThat(bob.get("/v1/archive/messages?convId=" + CONV + "&before=-1").status()).isEqualTo(400);
    assertThat(new ApiClient(app.httpPort(), null).get("/v1/archive/messages?convId=" + CONV).status()).isEqualTo(401);
  }

  private static List<Long> range(long from, long downTo) {
    List<Long> seqs = new ArrayList<>();
    for (long seq = from; seq >= downTo; seq--) {
      seqs.add(seq);
    }
    return seqs;
  }
}
