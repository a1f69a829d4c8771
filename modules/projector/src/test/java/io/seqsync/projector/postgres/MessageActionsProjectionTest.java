package io.seqsync.projector.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.seqsync.events.model.Event;
import io.seqsync.events.model.Message;
import io.seqsync.events.model.MessageAppended;
import io.seqsync.events.model.MessageEdited;
import io.seqsync.events.model.MessageType;
import io.seqsync.events.model.ReactionChanged;
import io.seqsync.events.model.ReadAdvanced;
import io.seqsync.events.model.RecallApplied;
import io.seqsync.store.ConversationQueries;
import io.seqsync.store.MessageQueries;
import io.seqsync.store.MessageState;
import io.seqsync.store.StoredMessage;
import io.seqsync.store.TestDatabases;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Message actions through ProjectionWriter into a real PostgreSQL, read back as pages show them
 * (MessageQueries): replies with their quote, mentions, edits, reactions as each user sees them,
 * and what a recall undoes.
 */
class MessageActionsProjectionTest {
  private static final AtomicLong IDS = new AtomicLong(5_000);
  private static final String CONV = "g:crew";
  private static final long ALICE = 1;
  private static final long BOB = 2;

  @RegisterExtension
  static final TestDatabases databases = new TestDatabases("actions");

  private final ProjectionWriter writer = new ProjectionWriter();
  private Jdbi jdbi;
  private MessageQueries messages;

  @BeforeEach
  void open() {
    jdbi = databases.database().jdbi();
    messages = new MessageQueries(jdbi);
  }

  @Test
  void aReplyShowsItsQuoteAndMentionsAndAPlainMessageNoState() {
    Message first = message(1, ALICE, MessageType.TEXT, "x".repeat(150));
    Message reply = message(2, BOB, MessageType.TEXT, "yes @1");
    reply.setReplyTo(1L);
    reply.setMentions(List.of(ALICE));
    apply(new MessageAppended(first), new MessageAppended(reply));

    List<StoredMessage> page = page(ALICE);
    assertThat(page.get(0).state()).isNull();
    MessageState state = page.get(1).state();
    assertThat(state.replyTo()).isEqualTo(1L);
    assertThat(state.mentions()).containsExactly(ALICE);
    assertThat(state.quote()).isEqualTo(new MessageState.Quote(1, ALICE, "text", "x".repeat(MessageState.QUOTE_CHARS)));
    assertThat(state.editedAt()).isNull();
  }

  @Test
  void anEditReplacesTheContentAndReactionsCountPerEmojiAsEachUserSeesThem() {
    apply(new MessageAppended(message(1, ALICE, MessageType.TEXT, "helo")));
    Message edit = message(2, ALICE, MessageType.EDIT, "{\"seq\":1,\"content\":\"hello\"}");
    // One batch: a reaction added, removed and added again ends added; the last edit wins.
    apply(new MessageEdited(edit, 1L, "hello"),
        reaction(3, BOB, "👍", true), reaction(4, ALICE, "👍", true), reaction(5, BOB, "🎉", true),
        reaction(6, BOB, "🎉", false), reaction(7, BOB, "🎉", true), reaction(8, ALICE, "👀", true));
    apply(reaction(9, ALICE, "👀", false),
        new MessageEdited(message(10, ALICE, MessageType.EDIT, "{\"seq\":1,\"content\":\"hello!\"}"), 1L, "hello!"));

    StoredMessage edited = page(BOB).get(0);
    assertThat(edited.content()).isEqualTo("hello!");
    assertThat(edited.state().editedAt()).isEqualTo(createTime(10));
    assertThat(edited.state().reactionCount()).isEqualTo(3);
    assertThat(edited.state().reactions()).containsExactly(
        new MessageState.Reaction("👍", 2, true), new MessageState.Reaction("🎉", 1, true));
    assertThat(page(ALICE).get(0).state().reactions()).containsExactly(
        new MessageState.Reaction("👍", 2, true), new MessageState.Reaction("🎉", 1, false));
    assertThat(page(ALICE)).extracting(StoredMessage::type)
        .containsExactly("text", "edit", "reaction", "reaction", "reaction", "reaction", "reaction", "reaction",
            "reaction", "edit");
  }

  @Test
  void aRecallUndoesEditsAndReactionsEvenInTheSameBatch() {
    apply(new MessageAppended(message(1, ALICE, MessageType.TEXT, "secret")),
        new MessageAppended(message(2, ALICE, MessageType.TEXT, "kept")));
    apply(new MessageEdited(message(3, ALICE, MessageType.EDIT, "{\"seq\":1,\"content\":\"secret v2\"}"), 1L, "secret v2"),
        reaction(4, BOB, "👍", true), reaction(5, ALICE, "❤", true), reaction(6, BOB, "❤", true),
        new MessageEdited(message(7, ALICE, MessageType.EDIT, "{\"seq\":2,\"content\":\"kept v2\"}"), 2L, "kept v2"));
    apply(new MessageEdited(message(8, ALICE, MessageType.EDIT, "{\"seq\":1,\"content\":\"secret v3\"}"), 1L, "secret v3"),
        new RecallApplied(message(9, ALICE, MessageType.RECALL, "1"), 1L));

    List<StoredMessage> page = page(BOB);
    assertThat(page.get(0).recalled()).isTrue();
    assertThat(page.get(0).content()).isEqualTo(StoredMessage.RECALLED_PLACEHOLDER);
    assertThat(page.get(0).state()).isNull();
    assertThat(page).filteredOn(m -> m.type().equals("edit")).extracting(StoredMessage::seq, StoredMessage::content)
        .containsExactly(tuple(3L, StoredMessage.RECALLED_PLACEHOLDER),
            tuple(7L, "{\"seq\":2,\"content\":\"kept v2\"}"),
            tuple(8L, StoredMessage.RECALLED_PLACEHOLDER));
    assertThat(page.get(1).content()).isEqualTo("kept v2");
    long reactionsLeft = jdbi.withHandle(handle -> handle.createQuery(
        "select count(*) from message_reactions where seq = 1").mapTo(Long.class).one());
    assertThat(reactionsLeft).isZero();
  }

  @Test
  void aMentionCountsInTheMentionedUsersListUntilReadOrRecalled() {
    String direct = "d:1:2";
    Message first = message(1, ALICE, MessageType.TEXT, "@2 @1");
    first.setConvId(direct);
    first.setMentions(List.of(BOB, ALICE));
    Message second = message(2, ALICE, MessageType.TEXT, "@2 again");
    second.setConvId(direct);
    second.setMentions(List.of(BOB));
    applyIn(direct, new MessageAppended(first), new MessageAppended(second));
    ConversationQueries lists = new ConversationQueries(jdbi);
    assertThat(lists.list(BOB, 10, null).get(0).entry().mentions()).isEqualTo(2);
    assertThat(lists.list(ALICE, 10, null).get(0).entry().mentions()).as("the sender's own mention").isZero();

    applyIn(direct, new ReadAdvanced(BOB, "phone", 1L));
    assertThat(lists.list(BOB, 10, null).get(0).entry().mentions()).isEqualTo(1);
    Message recall = message(3, ALICE, MessageType.RECALL, "2");
    recall.setConvId(direct);
    applyIn(direct, new RecallApplied(recall, 2L));
    assertThat(lists.list(BOB, 10, null).get(0).entry().mentions()).isZero();
    long rows = jdbi.withHandle(handle -> handle.createQuery("select count(*) from mentions").mapTo(Long.class).one());
    assertThat(rows).as("read and recalled mentions are deleted").isZero();
  }

  private List<StoredMessage> page(long userId) {
    return messages.withActions(messages.after(CONV, 0, 50), CONV, userId).messages();
  }

  private void apply(Object... payloads) {
    applyIn(CONV, payloads);
  }

  private void applyIn(String convId, Object... payloads) {
    List<Event> events = Arrays.stream(payloads)
        .map(payload -> payload instanceof Event event ? event : new Event(convId, "cmd-" + IDS.incrementAndGet(), 0L, payload))
        .toList();
    jdbi.useTransaction(handle -> writer.apply(handle, events, ProjectionWriter.NewMessages.PLAIN));
  }

  private static Event reaction(long seq, long userId, String emoji, boolean added) {
    String content = "{\"seq\":1,\"emoji\":\"" + emoji + "\",\"added\":" + added + "}";
    return new Event(CONV, "cmd-" + IDS.incrementAndGet(), 0L,
        new ReactionChanged(message(seq, userId, MessageType.REACTION, content), 1L, emoji, added));
  }

  private static Message message(long seq, long senderId, MessageType type, String content) {
    long msgId = IDS.incrementAndGet();
    return Message.newBuilder().setMsgId(msgId).setConvId(CONV).setSeq(seq).setSenderId(senderId).setSenderDevice("phone")
        .setClientMsgId("c" + msgId).setType(type).setContent(content).setCreateTime(createTime(seq)).build();
  }

  private static long createTime(long seq) {
    return 1_700_000_000_000L + seq;
  }
}
