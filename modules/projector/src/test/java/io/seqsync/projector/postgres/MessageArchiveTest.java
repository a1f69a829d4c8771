package io.seqsync.projector.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqsync.config.FetchSettings;
import io.seqsync.events.ConvId;
import io.seqsync.store.ArchiveQueries;
import io.seqsync.store.ConversationQueries;
import io.seqsync.store.MessageQueries;
import io.seqsync.store.StoredMessage;
import io.seqsync.store.SyncQueries;
import io.seqsync.store.TestDatabases;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The hot and cold tiers (R22) on real PostgreSQL: the archive job, the hot floor, archive pages. */
class MessageArchiveTest {
  private static final String DIRECT = "d:1:2";
  private static final String GROUP = "g:team";
  private static final LocalDate DAY_ZERO = LocalDate.of(2026, 1, 1);
  // 45 hot days from here: DAY_ZERO + 6 is the first hot day.
  private static final Instant NOW = DAY_ZERO.plusDays(50).atTime(12, 0).toInstant(ZoneOffset.UTC);

  @RegisterExtension
  static final TestDatabases databases = new TestDatabases("archive");

  private Jdbi jdbi;
  private MessageArchive archive;

  @BeforeEach
  void conversations() {
    jdbi = databases.database().jdbi();
    archive = new MessageArchive(jdbi, 45);
    // The direct conversation: seq i created on DAY_ZERO + i, at noon (i = 1..10).
    insert(DIRECT, 1, 10, seq -> DAY_ZERO.plusDays(seq));
    // The group: seqs 1-3 on day 2, one clock step back at seq 4 (day 1), seq 5 within the hot window.
    insert(GROUP, 1, 3, seq -> DAY_ZERO.plusDays(2));
    insert(GROUP, 4, 4, seq -> DAY_ZERO.plusDays(1));
    insert(GROUP, 5, 5, seq -> DAY_ZERO.plusDays(49));
    jdbi.useHandle(handle -> handle.execute(
        "insert into conversation_members (conv_id, user_id) values (?, 1), (?, 2)", DIRECT, DIRECT));
  }

  @Test
  void daysBeforeTheHotWindowMoveAsPrefixesOfSeqsAndAgainNothing() {
    MessageArchive.Moved moved = archive.run(NOW);

    assertThat(moved).isEqualTo(new MessageArchive.Moved(5, 9));
    assertThat(seqs("messages", DIRECT)).containsExactly(6L, 7L, 8L, 9L, 10L);
    assertThat(seqs("archived_messages", DIRECT)).containsExactly(1L, 2L, 3L, 4L, 5L);
    // Seq 4's earlier clock does not leave it behind: the group's prefix up to it moves whole.
    assertThat(seqs("messages", GROUP)).containsExactly(5L);
    assertThat(seqs("archived_messages", GROUP)).containsExactly(1L, 2L, 3L, 4L);
    assertThat(archivedSeq(DIRECT)).isEqualTo(5);
    assertThat(archivedSeq(GROUP)).isEqualTo(4);
    long days = jdbi.withHandle(handle -> handle.createQuery("select count(*) from archived_days").mapTo(Long.class).one());
    assertThat(days).isEqualTo(5);

    assertThat(archive.run(NOW)).isEqualTo(new MessageArchive.Moved(0, 0));
    assertThat(archive.run(NOW.plus(Duration.ofDays(1)))).isEqualTo(new MessageArchive.Moved(1, 1));
    assertThat(seqs("messages", DIRECT)).containsExactly(7L, 8L, 9L, 10L);
  }

  @Test
  void aRunCutShortIsFinishedByTheNext() {
    assertThat(archive.moveDay(DAY_ZERO.plusDays(3))).isEqualTo(3);
    assertThat(seqs("archived_messages", DIRECT)).containsExactly(1L, 2L, 3L);

    archive.run(NOW);

    assertThat(seqs("archived_messages", DIRECT)).containsExactly(1L, 2L, 3L, 4L, 5L);
    assertThat(seqs("messages", DIRECT)).containsExactly(6L, 7L, 8L, 9L, 10L);
  }

  @Test
  void theHotTierShowsItsFloorAndTheArchivePagesNewestFirst() {
    archive.run(NOW);
    MessageQueries hot = new MessageQueries(jdbi);
    ArchiveQueries cold = new ArchiveQueries(jdbi, Duration.ofSeconds(3));

    MessageQueries.Page fromStart = hot.after(DIRECT, 0, 50);
    assertThat(fromStart.messages()).extracting(StoredMessage::seq).containsExactly(6L, 7L, 8L, 9L, 10L);
    assertThat(fromStart.archivedSeq()).isEqualTo(5);
    assertThat(hot.last(DIRECT, 20).hasMore()).isFalse();

    ArchiveQueries.Page newest = cold.page(DIRECT, Long.MAX_VALUE, Long.MAX_VALUE, 0, 2);
    assertThat(newest.messages()).extracting(StoredMessage::seq).containsExactly(5L, 4L);
    assertThat(newest.hasMore()).isTrue();
    ArchiveQueries.Page next = cold.page(DIRECT, Long.MAX_VALUE, 4, 0, 2);
    assertThat(next.messages()).extracting(StoredMessage::seq).containsExactly(3L, 2L);
    ArchiveQueries.Page byTime = cold.page(DIRECT, millis(DAY_ZERO.plusDays(2)), Long.MAX_VALUE, 0, 50);
    assertThat(byTime.messages()).extracting(StoredMessage::seq).containsExactly(1L);
    assertThat(byTime.hasMore()).isFalse();
    // A group member who joined at seq 3 reads the archive from seq 3 on.
    assertThat(cold.page(GROUP, Long.MAX_VALUE, Long.MAX_VALUE, 2, 50).messages())
        .extracting(StoredMessage::seq).containsExactly(4L, 3L);
  }

  @Test
  void unreadCountsSpanBothTiers() {
    ConversationQueries conversations = new ConversationQueries(jdbi);
    ConvId direct = ConvId.parse(DIRECT).orElseThrow();
    assertThat(conversations.activation(2, "laptop", direct).unread()).isEqualTo(10);

    archive.run(NOW.plus(Duration.ofDays(30)));

    assertThat(seqs("messages", DIRECT)).isEmpty();
    assertThat(conversations.activation(2, "laptop", direct).unread()).as("all ten archived").isEqualTo(10);
    SyncQueries sync = new SyncQueries(jdbi, 500, FetchSettings.SYNC_SCREEN_CONVERSATIONS,
        FetchSettings.SYNC_SCREEN_BYTES);
    assertThat(sync.page(2, "laptop", Map.of(DIRECT, 4L), null).rows()).extracting(ConversationQueries.SyncRow::unread)
        .containsExactly(10L);
  }

  private interface DayOfSeq {
    LocalDate day(long seq);
  }

  private void insert(String conv, long from, long to, DayOfSeq dayOf) {
    jdbi.useTransaction(handle -> {
      handle.execute("insert into conversations (conv_id, kind, latest_seq, last_activity) values (?, ?, ?, 0)"
          + " on conflict (conv_id) do update set latest_seq = excluded.latest_seq",
          conv, conv.startsWith("g:") ? "group" : "direct", to);
      for (long seq = from; seq <= to; seq++) {
        handle.execute("insert into messages (conv_id, seq, msg_id, sender_id, sender_device, client_msg_id, type,"
                + " content, create_time) values (?, ?, ?, 1, 'phone', ?, 'text', ?, ?)",
            conv, seq, (conv.startsWith("g:") ? 2000 : 1000) + seq, "c-" + seq, "hello " + seq,
            millis(dayOf.day(seq)) + 12 * 3600 * 1000L);
      }
    });
  }

  private static long millis(LocalDate day) {
    return day.atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
  }

  private List<Long> seqs(String table, String conv) {
    return jdbi.withHandle(handle -> handle.createQuery("select seq from " + table + " where conv_id = ? order by seq")
        .bind(0, conv).mapTo(Long.class).list());
  }

  private long archivedSeq(String conv) {
    return jdbi.withHandle(handle -> handle.createQuery("select archived_seq from conversations where conv_id = ?")
        .bind(0, conv).mapTo(Long.class).one());
  }
}
