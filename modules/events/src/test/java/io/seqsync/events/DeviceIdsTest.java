package io.seqsync.events;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DeviceIdsTest {

  @ParameterizedTest
  @ValueSource(strings = {"a", "phone", "Laptop-2.home_office", "0123456789"})
  void lettersDigitsDotsDashesAndUnderscoresAreValid(String deviceId) {
    assertThat(DeviceIds.isValid(deviceId)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "has space", "slash/", "colon:", "ü", "tab\t", "nul\u0000"})
  void anythingElseIsNot(String deviceId) {
    assertThat(DeviceIds.isValid(deviceId)).isFalse();
  }

  @Test
  void atMost64Characters() {
    assertThat(DeviceIds.isValid("x".repeat(64))).isTrue();
    assertThat(DeviceIds.isValid("x".repeat(65))).isFalse();
    assertThat(DeviceIds.isValid(null)).isFalse();
  }
}
