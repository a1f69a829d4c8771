package io.seqsync.projector.erasure;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqsync.store.TestDatabases;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A recall deletes the notifier's pending and dead-lettered deliveries of its message on a real
 * PostgreSQL: the push of its seq, the webhooks of its send and of its edits; nothing of another
 * message or conversation.
 */
class RecalledDeliveriesTest {
  @RegisterExtension
  static final TestDatabases databases = new TestDatabases("recalled_deliveries");

  @Test
  void theRecalledMessagesPushesAndWebhooksGoAndNothingElse() {
    Jdbi jdbi = databases.database().jdbi();
    pending(jdbi, "push", "d:1:2", 5, "{\"type\":\"text\",\"body\":\"secret\"}");
    pending(jdbi, "push", "d:1:2", 6, "{\"type\":\"text\",\"body\":\"kept\"}");
    pending(jdbi, "push", "d:1:3", 5, "{\"type\":\"text\",\"body\":\"other conversation\"}");
    pending(jdbi, "webhooks", "d:1:2", 100, webhook("message.sent", "\"seq\":5,\"content\":\"secret\""));
    pending(jdbi, "webhooks", "d:1:2", 101, webhook("message.sent", "\"seq\":55,\"content\":\"kept \\\"seq\\\":5,\""));
    pending(jdbi, "webhooks", "d:1:2", 102, webhook("message.edited", "\"editedSeq\":5,\"content\":\"secret\""));
    pending(jdbi, "webhooks", "d:1:2", 103, webhook("message.recalled", "\"seq\":5,\"notice\":{}"));
    jdbi.useHandle(handle -> handle.execute("insert into notifier_dead_letters (channel, target, stream, seq, payload,"
        + " attempts, last_error, failed_at) values ('push', '1', 'd:1:2', 5, ?, 3, 'gone', 0)",
        "secret".getBytes(StandardCharsets.UTF_8)));

    int purged = jdbi.withHandle(handle -> RecalledDeliveries.purge(handle, "d:1:2", 5));

    assertThat(purged).isEqualTo(4);
    List<String> left = jdbi.withHandle(handle -> handle.createQuery("select convert_from(payload, 'UTF8')"
        + " from notifier_outbox order by id").mapTo(String.class).list());
    assertThat(left).hasSize(4).noneMatch(payload -> payload.contains("secret"));
  }

  private static String webhook(String type, String data) {
    return "{\"type\":\"" + type + "\",\"timestamp\":\"t\",\"data\":{\"convId\":\"d:1:2\"," + data + "}}";
  }

  private static void pending(Jdbi jdbi, String channel, String stream, long seq, String payload) {
    jdbi.useHandle(handle -> handle.execute("insert into notifier_outbox (channel, target, stream, slot, seq, payload,"
        + " due_at, created_at) values (?, '1', ?, ?, ?, ?, 0, 0)", channel, stream, Long.toString(seq), seq,
        payload.getBytes(StandardCharsets.UTF_8)));
  }
}
