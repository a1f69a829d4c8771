package io.seqsync.projector.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.seqsync.events.Announcements;
import io.seqsync.events.model.CommandRejected;
import io.seqsync.events.model.CursorAdvanced;
import io.seqsync.events.model.DraftUpdated;
import io.seqsync.events.model.Event;
import io.seqsync.events.model.MembershipChanged;
import io.seqsync.events.model.Message;
import io.seqsync.events.model.MessageAppended;
import io.seqsync.events.model.MessageType;
import io.seqsync.events.model.OutcomeKind;
import io.seqsync.events.model.ReadAdvanced;
import io.seqsync.events.model.RecallApplied;
import io.seqsync.events.model.RejectReason;
import io.seqsync.events.model.StoredOutcome;
import io.seqsync.store.StoredMessage;
import io.seqsync.store.TestDatabases;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.assertj.core.groups.Tuple;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

/** ProjectionWriter on a real PostgreSQL: one server per class, a fresh database per test. */
class ProjectionWriterTest {
  private static final AtomicLong MSG_IDS = new AtomicLong(1_000);
  private static final String DIRECT = "d:1:2";
  private static final String GROUP = "g:team";

  @RegisterExtension
  static final TestDatabases databases = new TestDatabases("writer");

  private final ProjectionWriter writer = new ProjectionWriter();
  private Jdbi jdbi;

  @BeforeEach
  void jdbiOfTheTestsDatabase() {
    jdbi = databases.database().jdbi();
  }

  @Test
  void appendsMessagesOneToNAndAnswersInEventOrder() {
    List<Event> events = new ArrayList<>();
    for (long seq = 1; seq <= 50; seq++) {
      events.add(appended(DIRECT, seq));
      events.add(appended(GROUP, seq));
    }

    AppliedBatch result = apply(events);

    assertThat(result.anomalies()).isEmpty();
    assertThat(result.outcomes()).hasSize(100);
    for (int i = 0; i < events.size(); i++) {
      Message message = ((MessageAppended) events.get(i).getPayload()).getMessage();
      assertThat(result.outcomes().get(i)).isEqualTo(Announcements.appended(
          events.get(i).getCommandId(), message.getConvId(), message.getSeq(), message.getMsgId(), message.getCreateTime()));
    }
    assertThat(seqs(DIRECT)).isEqualTo(oneTo(50));
    assertThat(seqs(GROUP)).isEqualTo(oneTo(50));
    Message last = ((MessageAppended) events.get(98).getPayload()).getMessage();
    assertThat(storedMessage(DIRECT, 50)).isEqualTo(new StoredMessage(last.getMsgId(), DIRECT, 50, 1, "phone",
        last.getClientMsgId(), "text", last.getContent(), last.getCreateTime(), false, null, null));
    assertThat(rows("select conv_id, kind, latest_seq, last_activity from conversations order by conv_id"))
        .containsExactly(tuple(DIRECT, "direct", 50L, createTime(50)), tuple(GROUP, "group", 50L, createTime(50)));
  }

  @Test
  void appliesFullBatchesOverManyConversations() {
    int batches = 10;
    int batchSize = 2_000;
    int conversations = 40;
    long began = System.nanoTime();
    for (int batch = 0; batch < batches; batch++) {
      List<Event> events = new ArrayList<>();
      for (int i = 0; i < batchSize; i++) {
        int index = batch * batchSize + i;
        events.add(appended("g:room-" + index % conversations, index / conversations + 1));
      }
      assertThat(apply(events).anomalies()).isEmpty();
    }
    long millis = (System.nanoTime() - began) / 1_000_000;
    LoggerFactory.getLogger(ProjectionWriterTest.class).info("{} events in batches of {}: {} ms, {} events/s",
        batches * batchSize, batchSize, millis, batches * batchSize * 1000L / Math.max(1, millis));

    assertThat(query("select count(*) from messages")).containsExactly(String.valueOf(batches * batchSize));
    assertThat(query("select distinct latest_seq from conversations"))
        .containsExactly(String.valueOf(batches * batchSize / conversations));
  }

  @Test
  void aDirectConversationStartsWithBothUsersAsMembers() {
    apply(List.of(appended(DIRECT, 1)));
    apply(List.of(appended(DIRECT, 2)));
    apply(List.of(appended(GROUP, 1)));

    assertThat(members(DIRECT)).containsExactly(Map.entry(1L, 0L), Map.entry(2L, 0L));
    assertThat(members(GROUP)).isEmpty();
  }

  @Test
  void recallStoresItsNoticeAndReplacesTheBodyOfTheRecalledMessage() {
    apply(List.of(appended(DIRECT, 1), appended(DIRECT, 2)));
    Event recallOfOne = recall(DIRECT, 3, 1);
    // The recalled message may arrive in the same batch as its recall.
    Event recallOfFour = recall(DIRECT, 5, 4);

    AppliedBatch result = apply(List.of(recallOfOne, appended(DIRECT, 4), recallOfFour));

    Message notice = ((RecallApplied) recallOfOne.getPayload()).getNotice();
    assertThat(result.outcomes().get(0)).isEqualTo(Announcements.appended(recallOfOne.getCommandId(), DIRECT, 3,
        notice.getMsgId(), notice.getCreateTime()));
    assertThat(storedMessage(DIRECT, 1).recalled()).isTrue();
    assertThat(storedMessage(DIRECT, 1).content()).isEqualTo(StoredMessage.RECALLED_PLACEHOLDER);
    assertThat(storedMessage(DIRECT, 2).recalled()).isFalse();
    assertThat(storedMessage(DIRECT, 3)).extracting(StoredMessage::type, StoredMessage::content, StoredMessage::recalled)
        .containsExactly("recall", "1", false);
    assertThat(storedMessage(DIRECT, 4).content()).isEqualTo(StoredMessage.RECALLED_PLACEHOLDER);
    assertThat(seqs(DIRECT)).isEqualTo(oneTo(5));
  }

  @Test
  void aRecallOfAnArchivedMessageAppliesInTheArchive() {
    apply(List.of(appended(DIRECT, 1), appended(DIRECT, 2)));
    // Both are days old by then: the archive job moves them between the recall and its projection.
    new MessageArchive(jdbi, 45).run(Instant.ofEpochMilli(createTime(2)).plus(Duration.ofDays(60)));

    apply(List.of(recall(DIRECT, 3, 1)));

    assertThat(query("select seq || ':' || recalled || ':' || content from archived_messages where conv_id = '"
        + DIRECT + "' order by seq")).containsExactly("1:true:" + StoredMessage.RECALLED_PLACEHOLDER, "2:false:hello 2");
    assertThat(seqs(DIRECT)).containsExactly(3L);
  }

  @Test
  void aRepeatedSeqNeverOverwritesTheStoredMessageAndIsCounted() {
    apply(List.of(appended(DIRECT, 1), appended(DIRECT, 2)));
    StoredMessage original = storedMessage(DIRECT, 2);
    Event repeat = appended(DIRECT, 2);

    AppliedBatch result = apply(List.of(repeat, appended(DIRECT, 3)));

    assertThat(result.count(ProjectionAnomaly.Kind.REPEAT)).isEqualTo(1);
    assertThat(result.count(ProjectionAnomaly.Kind.GAP)).isZero();
    assertThat(result.anomalies().get(0)).isEqualTo(new ProjectionAnomaly(ProjectionAnomaly.Kind.REPEAT, DIRECT, 3, 2,
        ((MessageAppended) repeat.getPayload()).getMessage().getMsgId()));
    assertThat(storedMessage(DIRECT, 2)).isEqualTo(original);
    assertThat(seqs(DIRECT)).isEqualTo(oneTo(3));
    assertThat(latestSeq(DIRECT)).isEqualTo(3);
    assertThat(seqAnomalyRows()).isZero();
  }

  @Test
  void aGapIsRecordedAndTheMessageStoredAnyway() {
    apply(List.of(appended(DIRECT, 1)));
    Event afterGap = appended(DIRECT, 4);

    AppliedBatch result = apply(List.of(afterGap, appended(DIRECT, 5)));

    long msgId = ((MessageAppended) afterGap.getPayload()).getMessage().getMsgId();
    assertThat(result.anomalies()).containsExactly(new ProjectionAnomaly(ProjectionAnomaly.Kind.GAP, DIRECT, 2, 4, msgId));
    assertThat(seqs(DIRECT)).containsExactly(1L, 4L, 5L);
    assertThat(latestSeq(DIRECT)).isEqualTo(5);
    assertThat(rows("select conv_id, expected_seq, actual_seq, msg_id from seq_anomalies"))
        .containsExactly(tuple(DIRECT, 2L, 4L, msgId));

    // A late message filling the hole is a repeat by seq, but nothing is stored there yet: it is kept.
    AppliedBatch late = apply(List.of(appended(DIRECT, 2)));
    assertThat(late.count(ProjectionAnomaly.Kind.REPEAT)).isEqualTo(1);
    assertThat(seqs(DIRECT)).containsExactly(1L, 2L, 4L, 5L);
  }

  @Test
  void aNewMessageWhoseMsgIdIsStoredFailsAPlainInsertAndIsLeftOutOfAGuardedOne() {
    apply(List.of(appended(DIRECT, 1)));
    long storedMsgId = storedMessage(DIRECT, 1).msgId();
    Event reusing = appended(DIRECT, 2);
    ((MessageAppended) reusing.getPayload()).getMessage().setMsgId(storedMsgId);
    List<Event> batch = List.of(appended(GROUP, 1), reusing, appended(DIRECT, 3));

    assertThatThrownBy(() -> apply(batch)).isInstanceOf(ProjectionWriter.MessageConflict.class);
    assertThat(seqs(DIRECT)).as("rolled back").containsExactly(1L);
    assertThat(query("select conv_id from conversations")).as("rolled back").containsExactly(DIRECT);

    AppliedBatch result = apply(batch, ProjectionWriter.NewMessages.GUARDED);
    assertThat(result.outcomes()).hasSize(3);
    assertThat(seqs(GROUP)).containsExactly(1L);
    assertThat(seqs(DIRECT)).containsExactly(1L, 3L);
    assertThat(storedMessage(DIRECT, 1).msgId()).isEqualTo(storedMsgId);
    assertThat(latestSeq(DIRECT)).isEqualTo(3);
  }

  @Test
  void cursorsAndReadPositionsOnlyMoveForwardAndDraftsKeepTheLast() {
    apply(List.of(appended(DIRECT, 1)));
    Event cursorFive = event(DIRECT, new CursorAdvanced(1L, "phone", 5L));
    AppliedBatch first = apply(List.of(cursorFive, event(DIRECT, new CursorAdvanced(1L, "phone", 3L)),
        event(DIRECT, new CursorAdvanced(1L, "laptop", 2L)), event(DIRECT, new ReadAdvanced(1L, "phone", 4L)),
        event(DIRECT, new DraftUpdated(1L, "phone", "hel")), event(DIRECT, new DraftUpdated(1L, "laptop", "hello"))));
    apply(List.of(event(DIRECT, new CursorAdvanced(1L, "phone", 4L)), event(DIRECT, new ReadAdvanced(1L, "laptop", 2L))));

    assertThat(first.outcomes()).extracting(StoredOutcome::getKind, StoredOutcome::getSeq).containsExactly(
        tuple(OutcomeKind.APPLIED, 5L), tuple(OutcomeKind.APPLIED, 3L), tuple(OutcomeKind.APPLIED, 2L),
        tuple(OutcomeKind.APPLIED, 4L), tuple(OutcomeKind.APPLIED, 0L), tuple(OutcomeKind.APPLIED, 0L));
    assertThat(first.outcomes().get(0).getCommandId()).isEqualTo(cursorFive.getCommandId());
    assertThat(query("select device_id || '=' || seq from device_cursors where user_id = 1 order by device_id"))
        .containsExactly("laptop=2", "phone=5");
    assertThat(query("select user_id || '=' || seq from read_positions")).containsExactly("1=4");
    assertThat(query("select device_id || ':' || text from drafts")).containsExactly("laptop:hello");
  }

  @Test
  void aSentMessageIsReadByItsSenderButNotices() {
    apply(List.of(appended(DIRECT, 1), appended(DIRECT, 2), event(DIRECT, new ReadAdvanced(1L, "phone", 1L))));
    apply(List.of(recall(DIRECT, 3, 2)));

    // Sender 1 read up to their last message; the recall notice (also theirs) moves nothing.
    assertThat(query("select user_id || '=' || seq from read_positions")).containsExactly("1=2");
  }

  @Test
  void membershipChangesStoreTheirNoticeMembersAndGroupName() {
    apply(List.of(membership(GROUP, 1, List.of(1L, 2L, 3L), List.of(), "Team")));
    apply(List.of(appended(GROUP, 2), membership(GROUP, 3, List.of(4L), List.of(2L), null)));
    // Removed and added back within one batch: a member again, from the later notice on.
    apply(List.of(membership(GROUP, 4, List.of(), List.of(3L), null), membership(GROUP, 5, List.of(3L), List.of(), null)));

    assertThat(members(GROUP)).containsExactly(Map.entry(1L, 1L), Map.entry(3L, 5L), Map.entry(4L, 3L));
    assertThat(query("select name from conversations")).containsExactly("Team");
    assertThat(storedMessage(GROUP, 1).type()).isEqualTo("system");
    assertThat(seqs(GROUP)).isEqualTo(oneTo(5));
  }

  @Test
  void aRejectedCommandStoresNothingAndIsAnsweredWithItsReason() {
    Event rejected = event(DIRECT, new CommandRejected(RejectReason.NO_SUCH_MESSAGE, "no message at seq 9"));

    AppliedBatch result = apply(List.of(rejected));

    assertThat(result.outcomes()).containsExactly(
        Announcements.rejected(rejected.getCommandId(), DIRECT, "NO_SUCH_MESSAGE: no message at seq 9"));
    assertThat(query("select conv_id from conversations")).isEmpty();
    assertThat(query("select conv_id from messages")).isEmpty();
  }

  @Test
  void aRolledBackBatchLeavesNothingBehind() {
    try {
      jdbi.useTransaction(handle -> {
        writer.apply(handle, List.of(appended(DIRECT, 1)), ProjectionWriter.NewMessages.PLAIN);
        throw new IllegalStateException("the offsets could not be written");
      });
    } catch (IllegalStateException expected) {
      // the caller's transaction failed after the writer ran
    }
    assertThat(query("select conv_id from conversations")).isEmpty();
    assertThat(apply(List.of(appended(DIRECT, 1))).anomalies()).isEmpty();
  }

  // As the projector applies a batch first.
  private AppliedBatch apply(List<Event> events) {
    return apply(events, ProjectionWriter.NewMessages.PLAIN);
  }

  private AppliedBatch apply(List<Event> events, ProjectionWriter.NewMessages newMessages) {
    return jdbi.inTransaction(handle -> writer.apply(handle, events, newMessages));
  }

  private static Event appended(String convId, long seq) {
    return event(convId, new MessageAppended(message(convId, seq, MessageType.TEXT, "hello " + seq)));
  }

  private static Event recall(String convId, long noticeSeq, long recalledSeq) {
    Message notice = message(convId, noticeSeq, MessageType.RECALL, Long.toString(recalledSeq));
    return event(convId, new RecallApplied(notice, recalledSeq));
  }

  private static Event membership(String convId, long seq, List<Long> added, List<Long> removed, String groupName) {
    Message notice = message(convId, seq, MessageType.SYSTEM, "{\"event\":\"membership\"}");
    return event(convId, new MembershipChanged(notice, added, removed, groupName, List.of()));
  }

  private static Message message(String convId, long seq, MessageType type, String content) {
    long msgId = MSG_IDS.incrementAndGet();
    return Message.newBuilder().setMsgId(msgId).setConvId(convId).setSeq(seq).setSenderId(1L).setSenderDevice("phone")
        .setClientMsgId("c" + msgId).setType(type).setContent(content).setCreateTime(createTime(seq)).build();
  }

  private static Event event(String convId, Object payload) {
    return new Event(convId, "cmd-" + MSG_IDS.incrementAndGet(), 1_700_000_000_000L, payload);
  }

  private static long createTime(long seq) {
    return 1_700_000_000_000L + seq;
  }

  private static List<Long> oneTo(long n) {
    return LongStream.rangeClosed(1, n).boxed().toList();
  }

  private List<Long> seqs(String convId) {
    return jdbi.withHandle(handle -> handle.createQuery("select seq from messages where conv_id = ? order by seq")
        .bind(0, convId).mapTo(Long.class).list());
  }

  private long latestSeq(String convId) {
    return jdbi.withHandle(handle -> handle.createQuery("select latest_seq from conversations where conv_id = ?")
        .bind(0, convId).mapTo(Long.class).one());
  }

  private Map<Long, Long> members(String convId) {
    return jdbi.withHandle(handle -> handle.createQuery(
            "select user_id, joined_seq from conversation_members where conv_id = ? order by user_id")
        .bind(0, convId).map((row, ctx) -> Map.entry(row.getLong(1), row.getLong(2)))
        .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue,
            (a, b) -> a, LinkedHashMap::new)));
  }

  private long seqAnomalyRows() {
    return jdbi.withHandle(handle -> handle.createQuery("select count(*) from seq_anomalies").mapTo(Long.class).one());
  }

  /** Each row as a tuple of its columns (bigint as Long, text as String). */
  private List<Tuple> rows(String sql) {
    return jdbi.withHandle(handle -> handle.createQuery(sql).map((row, ctx) -> {
      Object[] values = new Object[row.getMetaData().getColumnCount()];
      for (int i = 0; i < values.length; i++) {
        values[i] = row.getObject(i + 1);
      }
      return tuple(values);
    }).list());
  }

  private List<String> query(String sql) {
    return jdbi.withHandle(handle -> handle.createQuery(sql).mapTo(String.class).list());
  }

  private StoredMessage storedMessage(String convId, long seq) {
    return jdbi.withHandle(handle -> handle.createQuery("select msg_id, conv_id, seq, sender_id, sender_device,"
            + " client_msg_id, type, content, create_time, recalled from messages where conv_id = ? and seq = ?")
        .bind(0, convId).bind(1, seq)
        .map((row, ctx) -> new StoredMessage(row.getLong(1), row.getString(2), row.getLong(3), row.getLong(4),
            row.getString(5), row.getString(6), row.getString(7), row.getString(8), row.getLong(9), row.getBoolean(10),
            null, null))
        .one());
  }
}
