package io.seqsync.events;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ConvIdTest {

  @Test
  void directIdsAreTheSameWhoeverWritesFirst() {
    assertThat(ConvId.direct(9, 3)).isEqualTo(ConvId.direct(3, 9));
    assertThat(ConvId.direct(9, 3).value()).isEqualTo("d:3:9");
    assertThat(ConvId.direct(3, 9).namesUser(9)).isTrue();
    assertThat(ConvId.direct(3, 9).namesUser(4)).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {"d:1:2", "d:3:9223372036854775807", "g:team", "g:A-b_9"})
  void wellFormedIdsParse(String text) {
    assertThat(ConvId.parse(text)).map(ConvId::value).contains(text);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "d:", "d:2:1", "d:1:1", "d:0:5", "d:01:5", "d:-1:5", "d:1:9223372036854775808",
      "d:1:2:3", "g:", "g:has space", "g:toolong-toolong-toolong-toolong-toolong-toolong-toolong-toolong-x",
      "x:1:2", "d:1", "D:1:2", "g:ü"})
  void malformedIdsDoNot(String text) {
    assertThat(ConvId.parse(text)).isEmpty();
  }
}
