package io.seqsync.events;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.Decoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.util.Utf8;

/**
 * Avro's binary decoder over a byte array, refusing any string, bytes or collection whose length
 * prefix claims more than the input has left. Avro would otherwise allocate what a forged prefix
 * claims (up to 2 GiB) before noticing the input is shorter. Every item of seqsync's arrays takes
 * at least one byte (there are no arrays or maps of null), so a count above the bytes left is a
 * lie too. Wire format as Avro's: lengths and counts are zig-zag varints. Not thread-safe: one per
 * decode.
 */
final class BoundedDecoder extends Decoder {
  private final BinaryDecoder in;

  BoundedDecoder(byte[] bytes, int offset, int length) {
    this.in = DecoderFactory.get().binaryDecoder(bytes, offset, length, null);
  }

  /** Bytes not read yet (exact: the decoder reads straight from the array). */
  int remaining() throws IOException {
    return in.inputStream().available();
  }

  private int length(long claimed, String what) throws IOException {
    int left = remaining();
    if (claimed < 0 || claimed > left) {
      throw new EOFException(what + " of length " + claimed + " with " + left + " bytes left");
    }
    return (int) claimed;
  }

  // A block count; a negative one is followed by the block's size in bytes (Avro's spec).
  private long count(long claimed, String what) throws IOException {
    long count = claimed;
    if (count < 0) {
      in.readLong();
      count = -count;
    }
    return length(count, what);
  }

  @Override
  public Utf8 readString(Utf8 old) throws IOException {
    int length = length(in.readLong(), "string");
    Utf8 result = old != null ? old : new Utf8();
    result.setByteLength(length);
    in.readFixed(result.getBytes(), 0, length);
    return result;
  }

  @Override
  public String readString() throws IOException {
    return readString(null).toString();
  }

  @Override
  public void skipString() throws IOException {
    in.skipFixed(length(in.readLong(), "string"));
  }

  @Override
  public ByteBuffer readBytes(ByteBuffer old) throws IOException {
    byte[] bytes = new byte[length(in.readLong(), "bytes")];
    in.readFixed(bytes);
    return ByteBuffer.wrap(bytes);
  }

  @Override
  public void skipBytes() throws IOException {
    in.skipFixed(length(in.readLong(), "bytes"));
  }

  @Override
  public long readArrayStart() throws IOException {
    return count(in.readLong(), "array");
  }

  @Override
  public long arrayNext() throws IOException {
    return count(in.readLong(), "array");
  }

  @Override
  public long readMapStart() throws IOException {
    return count(in.readLong(), "map");
  }

  @Override
  public long mapNext() throws IOException {
    return count(in.readLong(), "map");
  }

  // Skipping (writer fields the reader lacks) reads item by item through the methods above.
  @Override
  public long skipArray() throws IOException {
    return readArrayStart();
  }

  @Override
  public long skipMap() throws IOException {
    return readMapStart();
  }

  @Override
  public void readNull() throws IOException {
    in.readNull();
  }

  @Override
  public boolean readBoolean() throws IOException {
    return in.readBoolean();
  }

  @Override
  public int readInt() throws IOException {
    return in.readInt();
  }

  @Override
  public long readLong() throws IOException {
    return in.readLong();
  }

  @Override
  public float readFloat() throws IOException {
    return in.readFloat();
  }

  @Override
  public double readDouble() throws IOException {
    return in.readDouble();
  }

  @Override
  public void readFixed(byte[] bytes, int start, int length) throws IOException {
    in.readFixed(bytes, start, length);
  }

  @Override
  public void skipFixed(int length) throws IOException {
    in.skipFixed(length);
  }

  @Override
  public int readEnum() throws IOException {
    return in.readEnum();
  }

  @Override
  public int readIndex() throws IOException {
    return in.readIndex();
  }

  @Override
  public int remainingBytes() {
    try {
      return remaining();
    } catch (IOException e) {
      return -1;
    }
  }
}
