package io.seqsync.events;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * One edit of an encoding: what a corrupt disk, a buggy producer or an attacker might do. jqwik
 * generates lists of them to corrupt valid encodings (shared with other modules' tests).
 */
public record ByteMutation(Kind kind, int position, int value) {
  public enum Kind { FLIP_BIT, SET_BYTE, INSERT_BYTE, DELETE_BYTE, TRUNCATE, INSERT_HUGE_VARINT, APPEND }

  public static Arbitrary<ByteMutation> arbitrary() {
    return Combinators.combine(Arbitraries.of(Kind.class), Arbitraries.integers().between(0, 10_000),
        Arbitraries.oneOf(Arbitraries.integers().between(0, 255), Arbitraries.of(0x00, 0x01, 0x7F, 0x80, 0xFF)))
        .as(ByteMutation::new);
  }

  public static byte[] applyAll(byte[] bytes, List<ByteMutation> mutations) {
    byte[] result = bytes;
    for (ByteMutation mutation : mutations) {
      result = mutation.apply(result);
    }
    return result;
  }

  public byte[] apply(byte[] bytes) {
    if (bytes.length == 0) {
      return new byte[] {(byte) value};
    }
    int at = position % bytes.length;
    byte[] copy = bytes.clone();
    return switch (kind) {
      case FLIP_BIT -> {
        copy[at] ^= (byte) (1 << (value % 8));
        yield copy;
      }
      case SET_BYTE -> {
        copy[at] = (byte) value;
        yield copy;
      }
      case INSERT_BYTE -> concat(Arrays.copyOf(bytes, at), new byte[] {(byte) value}, tail(bytes, at));
      case DELETE_BYTE -> concat(Arrays.copyOf(bytes, at), tail(bytes, at + 1));
      case TRUNCATE -> Arrays.copyOf(bytes, at);
      case INSERT_HUGE_VARINT -> concat(Arrays.copyOf(bytes, at), zigZag((long) value << 24 | 0xFFFFFF), tail(bytes, at));
      case APPEND -> concat(bytes, new byte[] {(byte) value});
    };
  }

  private static byte[] tail(byte[] bytes, int from) {
    return Arrays.copyOfRange(bytes, Math.min(from, bytes.length), bytes.length);
  }

  /** Avro's zig-zag varint of {@code value}: how lengths and counts are written. */
  public static byte[] zigZag(long value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    long n = (value << 1) ^ (value >> 63);
    while ((n & ~0x7FL) != 0) {
      out.write((int) ((n & 0x7F) | 0x80));
      n >>>= 7;
    }
    out.write((int) n);
    return out.toByteArray();
  }

  public static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }
}
