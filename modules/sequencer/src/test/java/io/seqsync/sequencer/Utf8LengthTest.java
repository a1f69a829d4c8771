package io.seqsync.sequencer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class Utf8LengthTest {

  @ParameterizedTest
  @ValueSource(strings = {"a", "plain ascii", "grüße", "日本語のテキスト", "emoji 😀 and 👍🏽", "\uD83D lone high",
      "lone low \uDE00", "ends high \uD83D", "\u0000\u007f\u0080\u07ff\u0800\uffff"})
  void countsAsTheEncoderDoes(String text) {
    int encoded = text.getBytes(StandardCharsets.UTF_8).length;

    assertThat(Utf8Length.of(text)).isEqualTo(encoded);
    assertThat(Utf8Length.exceeds(text, encoded)).isFalse();
    assertThat(Utf8Length.exceeds(text, encoded - 1)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 100, 1023, 1024, 1025})
  void theLimitIsExactForLongTexts(int limit) {
    String threeByteChars = "€".repeat(limit / 3 + 1);
    String mixed = "a€😀".repeat(limit / 7 + 1);

    assertThat(Utf8Length.exceeds(threeByteChars, limit))
        .isEqualTo(threeByteChars.getBytes(StandardCharsets.UTF_8).length > limit);
    assertThat(Utf8Length.exceeds(mixed, limit)).isEqualTo(mixed.getBytes(StandardCharsets.UTF_8).length > limit);
  }
}
