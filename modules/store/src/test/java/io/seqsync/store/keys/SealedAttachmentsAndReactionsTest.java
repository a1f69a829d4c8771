package io.seqsync.store.keys;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqsync.events.AttachmentRules;
import io.seqsync.events.SealedText;
import io.seqsync.events.model.Attachment;
import io.seqsync.events.model.Event;
import io.seqsync.events.model.Message;
import io.seqsync.events.model.MessageAppended;
import io.seqsync.events.model.MessageType;
import io.seqsync.events.model.ReactionChanged;
import io.seqsync.store.TestDatabases;
import java.util.List;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What else a user writes, sealed on a real PostgreSQL: an attachment's name and key under its
 * send's key (a recall or the user's erasure makes them unreadable with the content), and a
 * reaction's emoji under the key of its writer's reactions to the message, sealed the same way
 * each time (the sequencer compares them unopened) and erased with its writer.
 */
class SealedAttachmentsAndReactionsTest {
  @RegisterExtension
  static final TestDatabases databases = new TestDatabases("sealed_extras");

  private static final MasterKey MASTER = MasterKey.parse(MasterKey.generate());
  private static final String KEY = AttachmentRules.newKey(7);

  @Test
  void anAttachmentsNameAndKeyOpenWithTheContentAndGoWithItsKey() {
    Jdbi jdbi = databases.database().jdbi();
    ContentKeys keys = new ContentKeys(jdbi, MasterKeys.of(MASTER, List.of()));
    try (ContentSealer sealer = new ContentSealer(keys)) {
      List<String> sealed = sealer.sealAll(new ContentSealer.Owner(7, "d:7:8", "c1", null),
          List.of("look", "holiday marker.png", AttachmentRules.keySecret(KEY))).join();
      assertThat(sealed).hasSize(3).allSatisfy(text -> assertThat(text).startsWith(SealedText.PREFIX));
      assertThat(sealed).map(text -> SealedText.keyId(text).orElseThrow()).as("one key").containsOnly(
          SealedText.keyId(sealed.get(0)).orElseThrow());
      String sealedKey = AttachmentRules.keyPrefix(KEY) + sealed.get(2);
      assertThat(AttachmentRules.ownedBySealed(sealedKey, 7)).isTrue();
      assertThat(AttachmentRules.ownedBySealed(sealedKey, 8)).isFalse();

      Event event = image(sealed.get(0), sealed.get(1), sealedKey);
      new ContentOpener(keys).open(List.of(event));
      Message opened = ((MessageAppended) event.getPayload()).getMessage();
      assertThat(opened.getContent()).isEqualTo("look");
      assertThat(opened.getAttachment().getName()).isEqualTo("holiday marker.png");
      assertThat(opened.getAttachment().getKey()).isEqualTo(KEY);

      jdbi.useHandle(handle -> ContentKeys.eraseOwner(handle, 7));
      Event erased = image(sealed.get(0), sealed.get(1), sealedKey);
      new ContentOpener(keys).open(List.of(erased));
      assertThat(((MessageAppended) erased.getPayload()).getMessage().getContent()).isEqualTo(ContentOpener.ERASED);
      assertThat(((MessageAppended) erased.getPayload()).getMessage().getAttachment()).isNull();
    }
  }

  @Test
  void aReactionSealsTheSameEachTimeOpensAndIsErasedWithItsWriterOrTheMessage() {
    Jdbi jdbi = databases.database().jdbi();
    ContentKeys keys = new ContentKeys(jdbi, MasterKeys.of(MASTER, List.of()));
    try (ContentSealer sealer = new ContentSealer(keys)) {
      ContentSealer.Owner alice = new ContentSealer.Owner(17, "d:17:18", null, 1L);
      ContentSealer.Owner bob = new ContentSealer.Owner(18, "d:17:18", null, 1L);
      String thumbs = sealer.sealReaction(alice, "👍").join();
      assertThat(sealer.sealReaction(alice, "👍").join()).as("the same each time").isEqualTo(thumbs);
      assertThat(sealer.sealReaction(alice, "🎉").join()).isNotEqualTo(thumbs)
          .as("one key per writer and message").startsWith(thumbs.substring(0, thumbs.lastIndexOf('.')));
      String bobs = sealer.sealReaction(bob, "👍").join();
      assertThat(bobs).isNotEqualTo(thumbs);
      assertThat(sealer.sealReaction(new ContentSealer.Owner(17, "d:17:18", null, 2L), "👍").join())
          .as("another message, another key").isNotEqualTo(thumbs);

      List<Event> events = List.of(reaction(thumbs, 17), reaction(bobs, 18));
      new ContentOpener(keys).open(events);
      assertThat(events).map(SealedAttachmentsAndReactionsTest::emoji).containsExactly("👍", "👍");
      String notice = ((ReactionChanged) events.get(0).getPayload()).getNotice().getContent();
      assertThat(notice).isEqualTo("{\"seq\":1,\"emoji\":\"👍\",\"added\":true}");

      jdbi.useHandle(handle -> ContentKeys.eraseOwner(handle, 17));
      List<Event> afterErasure = List.of(reaction(thumbs, 17), reaction(bobs, 18));
      new ContentOpener(keys).open(afterErasure);
      assertThat(afterErasure).map(SealedAttachmentsAndReactionsTest::emoji)
          .containsExactly(ContentOpener.ERASED, "👍");

      // A recall of the message erases every reaction key on it (labelled with its seq).
      jdbi.useHandle(handle -> handle.execute("insert into messages (conv_id, seq, msg_id, sender_id, sender_device,"
          + " client_msg_id, type, content, create_time) values ('d:17:18', 1, 1, 18, 'p', 'c1', 'text', 'x', 0)"));
      jdbi.useHandle(handle -> ContentKeys.eraseMessage(handle, "d:17:18", 1));
      List<Event> afterRecall = List.of(reaction(bobs, 18));
      new ContentOpener(keys).open(afterRecall);
      assertThat(emoji(afterRecall.get(0))).isEqualTo(ContentOpener.ERASED);
    }
  }

  private static String emoji(Event event) {
    return ((ReactionChanged) event.getPayload()).getEmoji();
  }

  private static Event reaction(String sealedEmoji, long senderId) {
    String json = "{\"seq\":1,\"emoji\":\"" + sealedEmoji.replace("\u0001", "\\u0001") + "\",\"added\":true}";
    Message notice = Message.newBuilder().setMsgId(2).setConvId("d:17:18").setSeq(2).setSenderId(senderId)
        .setSenderDevice("p").setClientMsgId("r").setType(MessageType.REACTION).setContent(json).setCreateTime(0).build();
    return new Event("d:17:18", "cmd", 0L, new ReactionChanged(notice, 1L, sealedEmoji, true));
  }

  private static Event image(String content, String name, String key) {
    Message message = Message.newBuilder().setMsgId(1).setConvId("d:7:8").setSeq(1).setSenderId(7)
        .setSenderDevice("p").setClientMsgId("c1").setType(MessageType.IMAGE).setContent(content).setCreateTime(0)
        .setAttachment(new Attachment(key, 10L, "image/png", name, 1, 1)).build();
    return new Event("d:7:8", "cmd", 0L, new MessageAppended(message));
  }
}
