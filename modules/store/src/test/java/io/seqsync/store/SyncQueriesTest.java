package io.seqsync.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqsync.config.FetchSettings;
import io.seqsync.store.ConversationQueries.SyncRow;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The handshake's pages for a user in 100,000 conversations: bounded, and together complete. */
class SyncQueriesTest {
  private static final int CONVERSATIONS = 100_000;
  private static final int PAGE_SIZE = 500;
  // A plan node's table and what it produced: "... on conversation_members cm (... rows=5000 loops=1)".
  private static final Pattern SCAN = Pattern.compile(
      " on (conversation_members|conversations|device_cursors|read_positions) \\w+ .*actual time=\\S+ rows=(\\d+) loops=(\\d+)");

  @RegisterExtension
  static final TestDatabases databases = new TestDatabases("sync");

  private Database database;
  private SyncQueries sync;

  // User 1 is in g:000001..g:100000, conversation i last active at i. The phone has caught up with
  // every third one; everything else has something new (latest_seq 2). User 2 shares g:000001;
  // users 1000-2023 have a hundred conversations each.
  @BeforeEach
  void oneUserInAHundredThousandConversations() {
    database = databases.database();
    sync = new SyncQueries(database.jdbi(), PAGE_SIZE,
        FetchSettings.SYNC_SCREEN_CONVERSATIONS, FetchSettings.SYNC_SCREEN_BYTES);
    database.jdbi().useTransaction(handle -> {
      handle.execute("insert into conversations (conv_id, kind, latest_seq, last_activity)"
          + " select 'g:' || lpad(i::text, 6, '0'), 'group', 2, i from generate_series(1, ?) as i", CONVERSATIONS);
      handle.execute("insert into conversation_members (conv_id, user_id) select conv_id, 1 from conversations");
      handle.execute("insert into conversation_members (conv_id, user_id) values ('g:000001', 2)");
      // Others in the same conversations, so the planner sees a table of many users, as in use.
      handle.execute("insert into conversation_members (conv_id, user_id)"
          + " select conv_id, 1000 + (hashtext(conv_id) & 1023) from conversations");
      handle.execute("insert into device_cursors (user_id, device_id, conv_id, seq)"
          + " select 1, 'phone', 'g:' || lpad(i::text, 6, '0'), 2 from generate_series(3, ?, 3) as i", CONVERSATIONS);
      handle.execute("analyze");
    });
  }

  @Test
  void pagesAreBoundedAndTogetherHoldEveryConversationWithSomethingNewOnce() {
    Set<String> expected = new HashSet<>();
    for (int i = 1; i <= CONVERSATIONS; i++) {
      if (i % 3 != 0) {
        expected.add(String.format("g:%06d", i));
      }
    }
    List<String> seen = new ArrayList<>();
    String after = null;
    int pages = 0;
    do {
      SyncQueries.Page page = sync.page(1, "phone", Map.of(), after);
      pages++;
      assertThat(page.rows()).hasSizeLessThanOrEqualTo(PAGE_SIZE);
      assertThat(page.rows()).extracting(SyncRow::convId)
          .as("most recently active first within a page").isSortedAccordingTo((a, b) -> b.compareTo(a));
      page.rows().forEach(row -> seen.add(row.convId()));
      after = page.next().orElse(null);
    } while (after != null);

    assertThat(seen).doesNotHaveDuplicates();
    assertThat(new HashSet<>(seen)).isEqualTo(expected);
    assertThat(pages).isEqualTo(expected.size() / PAGE_SIZE + 1);
  }

  @Test
  void aPageReadsAtMostItsShareOfTheMembershipsWhereverItStarts() {
    Map<String, Long> tenThousandCursors = new HashMap<>();
    for (int i = 1; i <= 10_000; i++) {
      tenThousandCursors.put(String.format("g:%06d", i * 10), 2L);
    }
    for (String after : new String[] {null, "g:050000", "g:099990"}) {
      for (Map<String, Long> cursors : List.of(Map.<String, Long>of(), tenThousandCursors)) {
        assertThat(rowsRead(after, cursors)).as("after %s with %s cursors", after, cursors.size())
            .isPositive().isLessThanOrEqualTo(4L * sync.scan());
      }
    }
  }

  @Test
  void aPageWithNothingNewStillSaysWhereTheNextStarts() {
    database.jdbi().useHandle(handle -> handle.execute("insert into device_cursors (user_id, device_id, conv_id, seq)"
        + " select 1, 'laptop', conv_id, 2 from conversations where conv_id <= 'g:010000'"));
    SyncQueries.Page page = sync.page(1, "laptop", Map.of(), null);

    assertThat(page.rows()).isEmpty();
    assertThat(page.next()).contains(String.format("g:%06d", sync.scan()));
    assertThat(sync.page(2, "phone", Map.of(), null).rows()).extracting(SyncRow::convId).containsExactly("g:000001");
    assertThat(sync.page(2, "phone", Map.of(), null).next()).isEmpty();
  }

  // The rows every plan node reading a table produced (rows times loops), from EXPLAIN ANALYZE.
  private long rowsRead(String after, Map<String, Long> cursors) {
    List<String> plan = database.jdbi().withHandle(handle ->
        sync.bind(handle.createQuery("explain (analyze, costs off) " + SyncQueries.PAGE), 1, "phone", cursors, after)
            .mapTo(String.class).list());
    long rows = 0;
    for (String line : plan) {
      Matcher node = SCAN.matcher(line);
      if (node.find()) {
        rows += Long.parseLong(node.group(2)) * Long.parseLong(node.group(3));
      }
    }
    return rows;
  }
}
