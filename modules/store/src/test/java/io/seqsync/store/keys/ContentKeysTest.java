package io.seqsync.store.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seqsync.config.ConfigException;
import io.seqsync.config.Erasure;
import io.seqsync.events.SealedText;
import io.seqsync.events.model.DraftUpdated;
import io.seqsync.events.model.Event;
import io.seqsync.events.model.Message;
import io.seqsync.events.model.MessageAppended;
import io.seqsync.events.model.MessageEdited;
import io.seqsync.events.model.MessageType;
import io.seqsync.store.TestDatabases;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Crypto-shredding's key store on a real PostgreSQL: sealing, opening, erasing, rotating the master key. */
class ContentKeysTest {
  @RegisterExtension
  static final TestDatabases databases = new TestDatabases("content_keys");

  @TempDir Path dir;

  private static final MasterKey FIRST = MasterKey.parse(MasterKey.generate());

  @Test
  void aSealedTextOpensWhileItsKeyExistsAndReadsAsErasedOnceDeleted() {
    Jdbi jdbi = databases.database().jdbi();
    ContentKeys keys = new ContentKeys(jdbi, MasterKeys.of(FIRST, List.of()));
    try (ContentSealer sealer = new ContentSealer(keys)) {
      String sealed = sealer.seal(new ContentSealer.Owner(7, "d:7:8", "c1", null), "secret marker ü").join();
      String draft = sealer.seal(new ContentSealer.Owner(7, "d:7:8", null, null), "draft marker").join();
      String other = sealer.seal(new ContentSealer.Owner(8, "d:7:8", "c2", null), "bob's").join();
      assertThat(sealed).startsWith(SealedText.PREFIX).doesNotContain("marker");
      assertThat(sealed.length()).isLessThanOrEqualTo(SealedText.maxLength("secret marker ü".getBytes().length));

      List<Event> events = List.of(appended(sealed, 1), draft(draft), appended(other, 2));
      new ContentOpener(keys).open(events);
      assertThat(content(events.get(0))).isEqualTo("secret marker ü");
      assertThat(((DraftUpdated) events.get(1).getPayload()).getText()).isEqualTo("draft marker");

      int erased = jdbi.withHandle(handle -> ContentKeys.eraseOwner(handle, 7));
      assertThat(erased).isEqualTo(2);
      List<Event> again = List.of(appended(sealed, 1), draft(draft), appended(other, 2));
      new ContentOpener(keys).open(again);
      assertThat(content(again.get(0))).isEqualTo(ContentOpener.ERASED);
      assertThat(((DraftUpdated) again.get(1).getPayload()).getText()).isEmpty();
      assertThat(content(again.get(2))).as("another user's text").isEqualTo("bob's");
    }
  }

  @Test
  void anEditNoticeOpensInsideItsJsonAndARecallErasesTheSendAndItsEdits() {
    Jdbi jdbi = databases.database().jdbi();
    ContentKeys keys = new ContentKeys(jdbi, MasterKeys.of(FIRST, List.of()));
    try (ContentSealer sealer = new ContentSealer(keys)) {
      String sent = sealer.seal(new ContentSealer.Owner(7, "d:7:8", "c1", null), "first").join();
      String edited = sealer.seal(new ContentSealer.Owner(7, "d:7:8", null, 1L), "say \"second\"").join();
      jdbi.useHandle(handle -> handle.execute("insert into messages (conv_id, seq, msg_id, sender_id, sender_device,"
          + " client_msg_id, type, content, create_time) values ('d:7:8', 1, 1, 7, 'p', 'c1', 'text', 'x', 0)"));
      String noticeJson = "{\"seq\":1,\"content\":\"" + edited.replace("\u0001", "\\u0001") + "\"}";
      Event edit = event(new MessageEdited(message(noticeJson, 2, MessageType.EDIT), 1L, edited));
      new ContentOpener(keys).open(List.of(edit));
      MessageEdited opened = (MessageEdited) edit.getPayload();
      assertThat(opened.getContent()).isEqualTo("say \"second\"");
      assertThat(opened.getNotice().getContent()).isEqualTo("{\"seq\":1,\"content\":\"say \\\"second\\\"\"}");

      int erased = jdbi.withHandle(handle -> ContentKeys.eraseMessage(handle, "d:7:8", 1));
      assertThat(erased).isEqualTo(2);
      List<Event> after = List.of(appended(sent, 1),
          event(new MessageEdited(message(noticeJson, 2, MessageType.EDIT), 1L, edited)));
      new ContentOpener(keys).open(after);
      assertThat(content(after.get(0))).isEqualTo(ContentOpener.ERASED);
      assertThat(((MessageEdited) after.get(1).getPayload()).getNotice().getContent())
          .isEqualTo("{\"seq\":1,\"content\":\"[erased]\"}");
    }
  }

  @Test
  void retentionErasesOnlyOlderKeys() {
    Jdbi jdbi = databases.database().jdbi();
    ContentKeys keys = new ContentKeys(jdbi, MasterKeys.of(FIRST, List.of()));
    try (ContentSealer sealer = new ContentSealer(keys)) {
      String old = sealer.seal(new ContentSealer.Owner(7, "d:7:8", "c1", null), "old").join();
      String fresh = sealer.seal(new ContentSealer.Owner(7, "d:7:8", "c2", null), "fresh").join();
      jdbi.useHandle(handle -> handle.execute("update content_keys set created_at = now() - interval '40 days'"
          + " where key_id = ?", SealedText.keyId(old).orElseThrow()));
      assertThat(keys.eraseOlderThan(Instant.now().minus(Duration.ofDays(30)))).isEqualTo(1);
      List<Event> events = List.of(appended(old, 1), appended(fresh, 2));
      new ContentOpener(keys).open(events);
      assertThat(events).map(ContentKeysTest::content).containsExactly(ContentOpener.ERASED, "fresh");
    }
  }

  @Test
  void rotatingTheMasterKeyRewrapsRowsWithoutTouchingSealedTexts() {
    Jdbi jdbi = databases.database().jdbi();
    MasterKey second = MasterKey.parse(MasterKey.generate());
    String sealed;
    try (ContentSealer sealer = new ContentSealer(new ContentKeys(jdbi, MasterKeys.of(FIRST, List.of())))) {
      sealed = sealer.seal(new ContentSealer.Owner(7, "d:7:8", "c1", null), "kept").join();
    }
    ContentKeys withoutOld = new ContentKeys(jdbi, MasterKeys.of(second, List.of()));
    assertThatThrownBy(withoutOld::rewrap).hasMessageContaining("not configured");
    ContentKeys rotating = new ContentKeys(jdbi, MasterKeys.of(second, List.of(FIRST)));
    assertThat(rotating.rewrap()).isEqualTo(1);
    assertThat(rotating.rewrap()).isZero();
    List<Event> events = List.of(appended(sealed, 1));
    new ContentOpener(withoutOld).open(events);
    assertThat(content(events.get(0))).as("the old master key is no longer needed").isEqualTo("kept");
  }

  @Test
  void theEmbeddedMasterKeyIsGeneratedOnceUnderTheDataDirectory() throws Exception {
    MasterKeys first = MasterKeys.load(Erasure.defaults(), dir);
    MasterKeys second = MasterKeys.load(Erasure.defaults(), dir);
    assertThat(second.current().id()).isEqualTo(first.current().id());
    assertThat(Files.readString(dir.resolve("crypto/master.key")).strip()).hasSize(44);
    Erasure configured = new Erasure(true, Optional.of("c2hvcnQ="), List.of(), 0, Duration.ofHours(1));
    assertThatThrownBy(() -> MasterKeys.load(configured, dir)).isInstanceOf(ConfigException.class)
        .hasMessageContaining("32 bytes");
  }

  private static String content(Event event) {
    return ((MessageAppended) event.getPayload()).getMessage().getContent();
  }

  private static Event appended(String content, long seq) {
    return event(new MessageAppended(message(content, seq, MessageType.TEXT)));
  }

  private static Event draft(String text) {
    return event(new DraftUpdated(7L, "p", text));
  }

  private static Message message(String content, long seq, MessageType type) {
    return Message.newBuilder().setMsgId(seq).setConvId("d:7:8").setSeq(seq).setSenderId(7).setSenderDevice("p")
        .setClientMsgId("c" + seq).setType(type).setContent(content).setCreateTime(0).build();
  }

  private static Event event(Object payload) {
    return new Event("d:7:8", "cmd", 0L, payload);
  }
}
