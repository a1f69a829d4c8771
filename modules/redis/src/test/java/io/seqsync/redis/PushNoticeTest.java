package io.seqsync.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seqsync.store.StoredMessage;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A batch's push notices travel in few publications and come out as they went in. */
class PushNoticeTest {
  @Test
  void linesComeOutOfTheirPublicationsWholeAndInOrder() {
    List<String> lines = new ArrayList<>();
    StoredMessage tricky = new StoredMessage(7, "d:1:2", 3, 1, "phone", "c3", "text", "two\nlines\tand 12:colons:", 9L,
        false, null, null);
    PushNotice.message(tricky).address(List.of(1L, 2L), lines);
    PushNotice.draft("d:1:2", 1, "phone", "").address(List.of(1L), lines);
    PushNotice.message(tricky).address(List.of(), lines);
    assertThat(lines).hasSize(2);

    List<String> publications = PushNotice.publications(lines);
    assertThat(publications).hasSize(1);
    List<String> received = PushNotice.lines(publications.get(0));
    assertThat(received).isEqualTo(lines);
    assertThat(PushNotice.recipients(received.get(0))).containsExactly(1L, 2L);
    assertThat(PushNotice.decodeAddressed(received.get(0)).message()).isEqualTo(tricky);
    assertThat(PushNotice.decodeAddressed(received.get(1)).text()).isEmpty();
  }

  @Test
  void aLargeBatchIsSplitAtTheLimitWithoutCuttingALine() {
    String big = "x".repeat(PushNotice.PUBLICATION_CHARS / 3);
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      PushNotice.draft("d:1:2", 1, "phone", i + big).address(List.of(1L), lines);
    }
    List<String> publications = PushNotice.publications(lines);
    assertThat(publications).hasSizeBetween(4, 5);
    assertThat(publications).allSatisfy(publication ->
        assertThat(publication.length()).isLessThanOrEqualTo(PushNotice.PUBLICATION_CHARS + 20));
    assertThat(publications.stream().flatMap(publication -> PushNotice.lines(publication).stream()).toList())
        .isEqualTo(lines);
  }

  @Test
  void anInstanceGetsOnlyTheLinesOfItsUsersNamingOnlyThem() {
    List<String> lines = new ArrayList<>();
    StoredMessage message = new StoredMessage(7, "g:team", 3, 1, "phone", "c3", "text", "hi", 9L, false, null, null);
    PushNotice.message(message).address(List.of(1L, 2L, 3L), lines);
    PushNotice.draft("g:team", 1, "phone", "draft").address(List.of(1L), lines);

    List<String> forTwoAndThree = PushNotice.readdressed(lines, user -> user != 1L);

    assertThat(forTwoAndThree).hasSize(1);
    assertThat(PushNotice.recipients(forTwoAndThree.get(0))).containsExactly(2L, 3L);
    assertThat(PushNotice.decodeAddressed(forTwoAndThree.get(0)).message()).isEqualTo(message);
    assertThat(PushNotice.readdressed(lines, user -> true)).isEqualTo(lines);
    assertThat(PushNotice.channel("a1")).isNotEqualTo(PushNotice.channel("b2"));
  }

  @Test
  void aMalformedPublicationIsRefused() {
    assertThatThrownBy(() -> PushNotice.lines("no length here")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> PushNotice.lines("99:too short")).isInstanceOf(IllegalArgumentException.class);
  }
}
