package io.seqsync.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqsync.config.FetchSettings;
import io.seqsync.events.ConvId;
import io.seqsync.store.ConversationQueries.Membership;
import io.seqsync.store.ConversationQueries.SyncRow;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ConversationQueriesTest {

  @RegisterExtension
  static final TestDatabases databases = new TestDatabases("conversations");

  private Database database;
  private ConversationQueries queries;

  @BeforeEach
  void queriesOnTheTestsDatabase() {
    database = databases.database();
    queries = new ConversationQueries(database.jdbi());
  }

  @Test
  void directMembersAreTheTwoUsersOfTheId() {
    ConvId direct = ConvId.direct(1, 2);
    assertThat(queries.membership(direct, 1)).isEqualTo(Membership.MEMBER);
    assertThat(queries.membership(direct, 2)).isEqualTo(Membership.MEMBER);
    assertThat(queries.membership(direct, 3)).isEqualTo(Membership.NOT_MEMBER);
  }

  @Test
  void groupMembersComeFromTheTable() {
    database.jdbi().useHandle(handle -> {
      conversation(handle, "g:team", "group", 0, 0);
      member(handle, "g:team", 1);
      member(handle, "g:team", 2);
    });
    ConvId team = ConvId.parse("g:team").orElseThrow();

    assertThat(queries.membership(team, 1)).isEqualTo(Membership.MEMBER);
    assertThat(queries.membership(team, 3)).isEqualTo(Membership.NOT_MEMBER);
    assertThat(queries.membership(ConvId.parse("g:nope").orElseThrow(), 1)).isEqualTo(Membership.NO_SUCH_CONVERSATION);
  }

  @Test
  void cursorsAndReadPositionsDefaultToZero() {
    database.jdbi().useHandle(handle -> {
      handle.execute("insert into device_cursors (user_id, device_id, conv_id, seq) values (1, 'phone', 'd:1:2', 7)");
      handle.execute("insert into read_positions (user_id, conv_id, seq) values (1, 'd:1:2', 5)");
    });

    assertThat(queries.deviceCursor(1, "phone", "d:1:2")).isEqualTo(7);
    assertThat(queries.deviceCursor(1, "laptop", "d:1:2")).isZero();
    assertThat(queries.deviceCursor(2, "phone", "d:1:2")).isZero();
    assertThat(queries.readSeq(1, "d:1:2")).isEqualTo(5);
    assertThat(queries.readSeq(2, "d:1:2")).isZero();
  }

  @Test
  void syncListsOnlyConversationsWithSomethingNewForTheDevice() {
    database.jdbi().useHandle(handle -> {
      conversation(handle, "d:1:2", "direct", 5, 300);
      conversation(handle, "d:1:3", "direct", 3, 200);
      conversation(handle, "g:team", "group", 10, 100);
      conversation(handle, "d:2:3", "direct", 9, 400);
      conversation(handle, "d:1:4", "direct", 0, 50);
      for (String conv : new String[] {"d:1:2", "d:1:3", "g:team", "d:1:4"}) {
        member(handle, conv, 1);
      }
      member(handle, "d:2:3", 2);
      member(handle, "d:2:3", 3);
      handle.execute("insert into device_cursors (user_id, device_id, conv_id, seq) values"
          + " (1, 'phone', 'd:1:2', 5), (1, 'phone', 'd:1:3', 1), (1, 'laptop', 'g:team', 10)");
    });

    // Nothing reported: server cursors decide. d:1:2 is caught up on the phone, d:1:4 is empty.
    assertThat(sync(1, "phone", Map.of())).extracting(SyncRow::convId).containsExactly("d:1:3", "g:team");
    // The client's own cursors win where it gives them.
    assertThat(sync(1, "phone", Map.of("d:1:2", 3L, "g:team", 10L)))
        .extracting(SyncRow::convId).containsExactly("d:1:2", "d:1:3");
    assertThat(sync(1, "phone", Map.of("d:1:2", 5L, "d:1:3", 3L, "g:team", 10L))).isEmpty();
    // Another device has its own cursors; a conversation the caller is not in never shows.
    assertThat(sync(1, "laptop", Map.of("d:2:3", 0L))).extracting(SyncRow::convId).containsExactly("d:1:2", "d:1:3");

    SyncRow row = sync(1, "phone", Map.of("d:1:2", 0L)).get(0);
    assertThat(row).isEqualTo(new SyncRow("d:1:2", 5, 5, 0, 0));
  }

  @Test
  void unreadCountsOthersCountableMessagesAboveTheReadPosition() {
    database.jdbi().useHandle(handle -> {
      conversation(handle, "g:team", "group", 9, 100);
      member(handle, "g:team", 1);
      String[][] messages = {
          {"2", "text"}, {"2", "text"}, // 1, 2: read
          {"2", "text"}, {"3", "image"}, {"2", "file"}, // 3, 4, 5: unread
          {"1", "text"}, // 6: the user's own
          {"2", "system"}, {"2", "recall"}, // 7, 8: notices
          {"3", "text"}, // 9: recalled below
      };
      for (int i = 0; i < messages.length; i++) {
        handle.execute("insert into messages (conv_id, seq, msg_id, sender_id, sender_device, client_msg_id, type,"
            + " content, create_time) values ('g:team', ?, ?, ?, 'd', ?, ?, 'x', 1)",
            i + 1, 100 + i, Long.parseLong(messages[i][0]), "c" + i, messages[i][1]);
      }
      handle.execute("update messages set recalled = true where conv_id = 'g:team' and seq = 9");
      handle.execute("insert into read_positions (user_id, conv_id, seq) values (1, 'g:team', 2)");
      handle.execute("insert into device_cursors (user_id, device_id, conv_id, seq) values (1, 'phone', 'g:team', 4)");
    });

    assertThat(sync(1, "phone", Map.of())).containsExactly(new SyncRow("g:team", 9, 4, 2, 3));
  }

  @Test
  void pingAnswers() {
    assertThat(queries.ping()).isTrue();
  }

  // One page holds them all here: SyncQueriesTest pages.
  private List<SyncRow> sync(long userId, String deviceId, Map<String, Long> cursors) {
    SyncQueries sync = new SyncQueries(database.jdbi(), 500, FetchSettings.SYNC_SCREEN_CONVERSATIONS,
        FetchSettings.SYNC_SCREEN_BYTES);
    return sync.page(userId, deviceId, cursors, null).rows();
  }

  private static void conversation(Handle handle, String conv, String kind, long latestSeq, long lastActivity) {
    handle.execute("insert into conversations (conv_id, kind, latest_seq, last_activity) values (?, ?, ?, ?)",
        conv, kind, latestSeq, lastActivity);
  }

  private static void member(Handle handle, String conv, long userId) {
    handle.execute("insert into conversation_members (conv_id, user_id) values (?, ?)", conv, userId);
  }
}
