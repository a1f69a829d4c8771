package io.seqsync.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The first screens a handshake carries: the newest 20 unseen, the limited flag, the floors and the byte budget. */
class SyncScreensTest {
  @RegisterExtension
  static final TestDatabases databases = new TestDatabases("screens");

  private SyncScreens screens;

  // User 1 is in g:a (30 messages), g:b (12, joined at seq 10) and g:c (10, seqs up to 8 archived).
  @BeforeEach
  void conversations() {
    Database database = databases.database();
    screens = new SyncScreens(database.jdbi());
    database.jdbi().useTransaction(handle -> {
      handle.execute("insert into conversations (conv_id, kind, latest_seq) values ('g:a', 'group', 30), ('g:b', 'group', 12),"
          + " ('g:c', 'group', 10)");
      handle.execute("update conversations set archived_seq = 8 where conv_id = 'g:c'");
      handle.execute("insert into conversation_members (conv_id, user_id, joined_seq) values ('g:a', 1, 0), ('g:b', 1, 10),"
          + " ('g:c', 1, 0)");
      for (String[] conv : new String[][] {{"g:a", "30", "0"}, {"g:b", "12", "100"}, {"g:c", "10", "200"}}) {
        handle.execute("insert into messages (conv_id, seq, msg_id, sender_id, sender_device, client_msg_id, type, content,"
            + " create_time) select ?, s, ? + s, 2, 'phone', 'c' || s, 'text', repeat('x', 100), s from generate_series(1, ?) as s",
            conv[0], Integer.parseInt(conv[2]), Integer.parseInt(conv[1]));
      }
      handle.execute("delete from messages where conv_id = 'g:c' and seq <= 8");
    });
  }

  @Test
  void theNewestTwentyAboveTheCursorAndWhetherOlderUnseenOnesRemain() {
    Map<String, SyncScreens.Screen> answer = screens.screens(1,
        List.of(new SyncScreens.Ask("g:a", 5, 30), new SyncScreens.Ask("g:b", 0, 12)), 1 << 20);
    assertThat(seqs(answer.get("g:a"))).isEqualTo(LongStream.rangeClosed(11, 30).boxed().toList());
    assertThat(answer.get("g:a").limited()).isTrue();
    assertThat(seqs(answer.get("g:b"))).as("not below the notice that added the member").containsExactly(10L, 11L, 12L);
    assertThat(answer.get("g:b").limited()).isFalse();
  }

  @Test
  void aScreenThatHoldsEverythingUnseenIsNotLimitedAndEndsAtTheWatermark() {
    SyncScreens.Screen screen = screens.screens(1, List.of(new SyncScreens.Ask("g:a", 10, 29)), 1 << 20).get("g:a");
    assertThat(seqs(screen)).isEqualTo(LongStream.rangeClosed(11, 29).boxed().toList());
    assertThat(screen.limited()).isFalse();
    assertThat(screens.screens(1, List.of(new SyncScreens.Ask("g:a", 30, 30)), 1 << 20).get("g:a").messages()).isEmpty();
  }

  @Test
  void archivedUnseenMessagesMakeAScreenLimited() {
    SyncScreens.Screen screen = screens.screens(1, List.of(new SyncScreens.Ask("g:c", 5, 10)), 1 << 20).get("g:c");
    assertThat(seqs(screen)).containsExactly(9L, 10L);
    assertThat(screen.limited()).isTrue();
  }

  @Test
  void theByteBudgetLeavesOutWholeScreensFromTheFirstThatDoesNotFit() {
    // g:a's 20 messages are 2,000 bytes of content; g:b's 3 would pass 2,100.
    Map<String, SyncScreens.Screen> answer = screens.screens(1,
        List.of(new SyncScreens.Ask("g:a", 5, 30), new SyncScreens.Ask("g:b", 0, 12), new SyncScreens.Ask("g:c", 8, 10)), 2_100);
    assertThat(answer).containsOnlyKeys("g:a");
    assertThat(answer.get("g:a").messages()).hasSize(20);
  }

  private static List<Long> seqs(SyncScreens.Screen screen) {
    return screen.messages().stream().map(StoredMessage::seq).toList();
  }
}
