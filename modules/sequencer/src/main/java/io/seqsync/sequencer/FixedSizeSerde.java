package io.seqsync.sequencer;

import java.nio.ByteBuffer;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/** Serdes of the small fixed-size values the stores keep, written and read through a ByteBuffer. */
final class FixedSizeSerde {
  private FixedSizeSerde() {}

  static <T> Serde<T> of(int size, BiConsumer<ByteBuffer, T> write, Function<ByteBuffer, T> read) {
    return Serdes.serdeFrom(
        (topic, value) -> {
          if (value == null) {
            return null;
          }
          ByteBuffer buffer = ByteBuffer.allocate(size);
          write.accept(buffer, value);
          return buffer.array();
        },
        (topic, bytes) -> bytes == null ? null : read.apply(ByteBuffer.wrap(bytes)));
  }
}
