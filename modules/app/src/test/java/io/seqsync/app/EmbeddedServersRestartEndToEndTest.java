package io.seqsync.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.seqsync.testkit.ApiClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded default's redis-server, then its postmaster, killed with SIGKILL under a running
 * app: each is started again on its port and data, and the app's pools (Jedis, Hikari) and
 * subscriptions reconnect by themselves: sends answer 200 with their seqs, the list and the pages
 * are served, readiness is ok again.
 */
class EmbeddedServersRestartEndToEndTest {
  private static final Duration BACK = Duration.ofSeconds(90);

  @TempDir Path dir;

  @Test
  void theAppWorksOnAfterItsRedisAndItsPostgresWereKilledAndRestarted() throws Exception {
    try (SeqsyncApp app = EndToEnd.start(dir)) {
      ApiClient alice = EndToEnd.client(app, 1, "phone");
      ApiClient anonymous = new ApiClient(app.httpPort(), null);
      EndToEnd.send(alice, "d:1:2", 2);
      Thread.sleep(1_500); // appendfsync everysec: Redis's last second may not be in its append-only file yet

      kill(dir.resolve("redis/redis.pid"));
      JsonNode afterRedis = awaitSent(alice, "d:1:2");
      assertThat(afterRedis.get("seq").asLong()).isEqualTo(3);
      assertThat(EndToEnd.awaitUnread(EndToEnd.client(app, 2, "laptop"), "d:1:2", 3).get("latestSeq").asLong()).isEqualTo(3);
      awaitReady(anonymous);

      kill(dir.resolve("postgres/data/postmaster.pid"));
      JsonNode afterPostgres = awaitSent(alice, "d:1:2");
      assertThat(afterPostgres.get("seq").asLong()).isEqualTo(4);
      assertThat(EndToEnd.seqs(EndToEnd.ok(alice.get("/v1/conversations/d:1:2/messages?after=0")))).containsExactly(1L, 2L, 3L, 4L);
      awaitReady(anonymous);
    }
  }

  private static void kill(Path pidFile) throws IOException, InterruptedException {
    String pid = Files.readAllLines(pidFile).get(0).strip();
    assertThat(new ProcessBuilder("kill", "-KILL", pid).inheritIO().start().waitFor()).isZero();
  }

  // A send answered 200 once the server is back, retried as a client does: with the same clientMsgId.
  private static JsonNode awaitSent(ApiClient client, String conv) {
    String body = "{\"clientMsgId\":\"" + UUID.randomUUID() + "\",\"type\":\"text\",\"content\":\"after the kill\"}";
    return await(() -> {
      ApiClient.Response response = client.post("/v1/conversations/" + conv + "/messages", body);
      return response.status() == 200 ? response.body().get("message") : null;
    });
  }

  private static void awaitReady(ApiClient anonymous) {
    await(() -> {
      ApiClient.Response ready = anonymous.get("/health/ready");
      return ready.status() == 200 && ready.body().get("status").asText().equals("ok") ? ready.body() : null;
    });
  }

  private static JsonNode await(Supplier<JsonNode> probe) {
    long deadline = System.nanoTime() + BACK.toNanos();
    while (System.nanoTime() < deadline) {
      JsonNode answer = probe.get();
      if (answer != null) {
        return answer;
      }
      EndToEnd.sleep(250);
    }
    throw new AssertionError("not back within " + BACK);
  }
}
