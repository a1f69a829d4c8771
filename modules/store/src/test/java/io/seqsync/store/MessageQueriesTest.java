package io.seqsync.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.stream.LongStream;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class MessageQueriesTest {
  private static final String CONV = "d:1:2";

  @RegisterExtension
  static final TestDatabases databases = new TestDatabases("messages");

  private Database database;
  private MessageQueries queries;

  @BeforeEach
  void queriesOnTheTestsDatabase() {
    database = databases.database();
    queries = new MessageQueries(database.jdbi());
  }

  @Test
  void afterPagesForwardWithHasMore() {
    TestDatabases.insertMessages(database.jdbi(), CONV, 120);

    MessageQueries.Page first = queries.after(CONV, 0, 50);
    assertThat(seqs(first)).containsExactlyElementsOf(range(1, 50));
    assertThat(first.hasMore()).isTrue();
    assertThat(first.latestSeq()).isEqualTo(120);
    assertThat(first.lastSeqOr(-1)).isEqualTo(50);

    MessageQueries.Page last = queries.after(CONV, 100, 50);
    assertThat(seqs(last)).containsExactlyElementsOf(range(101, 120));
    assertThat(last.hasMore()).isFalse();

    MessageQueries.Page exact = queries.after(CONV, 70, 50);
    assertThat(seqs(exact)).containsExactlyElementsOf(range(71, 120));
    assertThat(exact.hasMore()).isFalse();

    MessageQueries.Page none = queries.after(CONV, 120, 50);
    assertThat(none.messages()).isEmpty();
    assertThat(none.hasMore()).isFalse();
    assertThat(none.latestSeq()).isEqualTo(120);
    assertThat(none.lastSeqOr(120)).isEqualTo(120);
  }

  @Test
  void rangeReturnsExactlyTheGap() {
    TestDatabases.insertMessages(database.jdbi(), CONV, 120);

    assertThat(seqs(queries.range(CONV, 10, 15, 50))).containsExactlyElementsOf(range(11, 15));
    assertThat(queries.range(CONV, 10, 15, 50).hasMore()).isFalse();

    MessageQueries.Page wide = queries.range(CONV, 10, 100, 50);
    assertThat(seqs(wide)).containsExactlyElementsOf(range(11, 60));
    assertThat(wide.hasMore()).isTrue();

    MessageQueries.Page exactlyFull = queries.range(CONV, 10, 60, 50);
    assertThat(seqs(exactlyFull)).containsExactlyElementsOf(range(11, 60));
    assertThat(exactlyFull.hasMore()).isFalse();

    assertThat(queries.range(CONV, 15, 15, 50).messages()).isEmpty();
  }

  @Test
  void lastAndBeforePageBackwardsInAscendingOrder() {
    TestDatabases.insertMessages(database.jdbi(), CONV, 120);

    MessageQueries.Page latest = queries.last(CONV, 20);
    assertThat(seqs(latest)).containsExactlyElementsOf(range(101, 120));
    assertThat(latest.hasMore()).isTrue();

    MessageQueries.Page older = queries.before(CONV, 101, 50);
    assertThat(seqs(older)).containsExactlyElementsOf(range(51, 100));
    assertThat(older.hasMore()).isTrue();

    MessageQueries.Page oldest = queries.before(CONV, 51, 50);
    assertThat(seqs(oldest)).containsExactlyElementsOf(range(1, 50));
    assertThat(oldest.hasMore()).isFalse();

    assertThat(queries.before(CONV, 1, 50).messages()).isEmpty();
    assertThat(seqs(queries.before(CONV, 5, 50))).containsExactly(1L, 2L, 3L, 4L);
    assertThat(seqs(queries.last(CONV, 200))).containsExactlyElementsOf(range(1, 120));
    assertThat(queries.last(CONV, 200).hasMore()).isFalse();
  }

  @Test
  void unknownConversationIsEmptyAtZero() {
    TestDatabases.insertMessages(database.jdbi(), CONV, 3);

    for (MessageQueries.Page page : List.of(queries.after("d:7:8", 0, 50), queries.last("d:7:8", 20),
        queries.before("d:7:8", 10, 50), queries.range("g:none", 0, 10, 50))) {
      assertThat(page.messages()).isEmpty();
      assertThat(page.hasMore()).isFalse();
      assertThat(page.latestSeq()).isZero();
    }
    assertThat(queries.latestSeq("d:7:8")).isZero();
    assertThat(queries.latestSeq(CONV)).isEqualTo(3);
  }

  @Test
  void nothingAboveTheWatermarkIsListed() {
    TestDatabases.insertMessages(database.jdbi(), CONV, 10);
    // A row the projector has not yet covered with the watermark (it writes both in one
    // transaction, so this cannot be seen in practice; the queries do not rely on that).
    database.jdbi().useHandle(handle -> handle.execute("update conversations set latest_seq = 8 where conv_id = ?", CONV));

    assertThat(seqs(queries.after(CONV, 5, 50))).containsExactly(6L, 7L, 8L);
    assertThat(queries.after(CONV, 5, 50).latestSeq()).isEqualTo(8);
    assertThat(seqs(queries.last(CONV, 2))).containsExactly(7L, 8L);
  }

  @Test
  void conversationsDoNotMix() {
    TestDatabases.insertMessages(database.jdbi(), CONV, 5);
    TestDatabases.insertMessages(database.jdbi(), "g:team", 7);

    assertThat(queries.after(CONV, 0, 50).messages()).allMatch(m -> m.convId().equals(CONV)).hasSize(5);
    assertThat(queries.last("g:team", 50).messages()).allMatch(m -> m.convId().equals("g:team")).hasSize(7);
  }

  @Test
  void bySeqReadsEveryFieldAndHidesRecalledContent() {
    TestDatabases.insertMessages(database.jdbi(), CONV, 3);
    database.jdbi().useHandle(handle ->
        handle.execute("update messages set recalled = true where conv_id = ? and seq = 2", CONV));

    StoredMessage first = queries.bySeq(CONV, 1).orElseThrow();
    assertThat(first).isEqualTo(new StoredMessage(1001, CONV, 1, 1, "phone", "c-1", "text", "hello 1", 5001, false,
        null, null));
    StoredMessage recalled = queries.bySeq(CONV, 2).orElseThrow();
    assertThat(recalled.recalled()).isTrue();
    assertThat(recalled.content()).isEqualTo(StoredMessage.RECALLED_PLACEHOLDER);
    assertThat(seqs(queries.after(CONV, 1, 1))).containsExactly(2L);
    assertThat(queries.after(CONV, 1, 1).messages().get(0).content()).isEqualTo(StoredMessage.RECALLED_PLACEHOLDER);
    assertThat(queries.bySeq(CONV, 4)).isEmpty();
  }

  @Test
  void pagesReadEveryFieldAsBySeqDoes() {
    TestDatabases.insertMessages(database.jdbi(), CONV, 6);
    database.jdbi().useHandle(handle -> {
      handle.execute("update messages set recalled = true where conv_id = ? and seq = 3", CONV);
      handle.execute("update messages set content = ?, sender_device = 'tablet-2', type = 'image' where conv_id = ?"
          + " and seq = 4", "h\u00e9llo \u4f60\u597d \ud83d\ude00 \"q\"\n", CONV);
    });
    List<StoredMessage> expected = LongStream.rangeClosed(1, 6)
        .mapToObj(seq -> queries.bySeq(CONV, seq).orElseThrow()).toList();
    assertThat(expected.get(2).content()).isEqualTo(StoredMessage.RECALLED_PLACEHOLDER);
    assertThat(expected.get(3).content()).isEqualTo("h\u00e9llo \u4f60\u597d \ud83d\ude00 \"q\"\n");

    assertThat(queries.after(CONV, 0, 50).messages()).containsExactlyElementsOf(expected);
    assertThat(queries.range(CONV, 2, 4, 50).messages()).containsExactlyElementsOf(expected.subList(2, 4));
    assertThat(queries.last(CONV, 50).messages()).containsExactlyElementsOf(expected);
    assertThat(queries.before(CONV, 5, 2, 1).messages()).containsExactlyElementsOf(expected.subList(2, 4));
  }

  @Test
  void limitMustBePositive() {
    assertThatThrownBy(() -> queries.after(CONV, 0, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> queries.last(CONV, -1)).isInstanceOf(IllegalArgumentException.class);
  }

  private static List<Long> seqs(MessageQueries.Page page) {
    return page.messages().stream().map(StoredMessage::seq).toList();
  }

  private static List<Long> range(long from, long to) {
    return LongStream.rangeClosed(from, to).boxed().toList();
  }
}
