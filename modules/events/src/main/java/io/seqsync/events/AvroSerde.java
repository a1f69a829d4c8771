package io.seqsync.events;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.io.DatumReader;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificRecord;
import org.apache.avro.util.ClassSecurityValidator;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The one serde of seqsync's Avro records: Avro single-object encoding (a 10-byte header with the
 * writer schema's fingerprint, then the binary datum). Decoding resolves the writer schema by
 * fingerprint among the current one and every released version ({@link SchemaHistory}), so old
 * records read into today's classes. Decoding goes through a {@link BoundedDecoder}: bytes from
 * a topic are untrusted, and whatever they are, decoding yields a record or throws a
 * {@link SerializationException} (never another exception, never an allocation sized by a
 * forged length prefix). Thread-safe: Avro's encoder and datum readers are.
 */
public final class AvroSerde<T extends SpecificRecord> implements Serde<T>, Serializer<T>, Deserializer<T> {
  private static final String MODEL_PACKAGE = "io.seqsync.events.model";

  static {
    // Avro 1.12 only instantiates classes it trusts; our generated records must be among them.
    ClassSecurityValidator.setGlobal(ClassSecurityValidator.composite(
        ClassSecurityValidator.getGlobal(), type -> type.getPackageName().equals(MODEL_PACKAGE)));
  }

  // Avro's single-object encoding: a marker, the writer schema's 64-bit fingerprint, the datum.
  private static final byte[] MARKER = {(byte) 0xC3, 0x01};
  private static final int HEADER_BYTES = MARKER.length + 8;

  /**
   * Avro's specific model with custom coders on: generated records then write and read their own
   * fields instead of Avro's generic field-by-field path (off by default in Avro 1.12). A model of
   * our own, so that the global one keeps Avro's defaults.
   */
  private static final SpecificData MODEL = customCodersModel();

  private final Schema schema;
  private final BinaryMessageEncoder<T> encoder;
  private final Map<Long, DatumReader<T>> readersByFingerprint = new ConcurrentHashMap<>();

  /** A serde for records of {@code schema} that also reads {@code history}'s versions of it. */
  public AvroSerde(Schema schema, SchemaHistory history) {
    this.schema = schema;
    // Without its own copy of the output: encode() copies it into the byte[] it returns anyway.
    this.encoder = new BinaryMessageEncoder<>(MODEL, schema, false);
    addWriterSchema(schema);
    history.versionsOf(schema.getFullName()).forEach(this::addWriterSchema);
  }

  private static SpecificData customCodersModel() {
    SpecificData model = new SpecificData(AvroSerde.class.getClassLoader());
    model.setCustomCoders(true);
    return model;
  }

  /** Teach the decoder one more writer schema (tests of evolution use it). */
  public void addWriterSchema(Schema writerSchema) {
    readersByFingerprint.put(SchemaNormalization.parsingFingerprint64(writerSchema),
        new SpecificDatumReader<>(writerSchema, schema, MODEL));
  }

  public Schema schema() {
    return schema;
  }

  public byte[] encode(T record) {
    try {
      // A view of the encoder's thread-local buffer: copied out before this thread encodes again.
      ByteBuffer buffer = encoder.encode(record);
      byte[] bytes = new byte[buffer.remaining()];
      buffer.get(bytes);
      return bytes;
    } catch (IOException | AvroRuntimeException | NullPointerException | ClassCastException e) {
      throw new SerializationException("cannot encode " + schema.getName() + ": " + e.getMessage(), e);
    }
  }

  /** Decodes, or throws {@link SerializationException} saying why the bytes are not a record of ours. */
  public T decode(byte[] bytes) {
    if (bytes == null || bytes.length < HEADER_BYTES || bytes[0] != MARKER[0] || bytes[1] != MARKER[1]) {
      throw undecodable("not Avro single-object encoding", null);
    }
    long fingerprint = ByteBuffer.wrap(bytes, MARKER.length, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
    DatumReader<T> reader = readersByFingerprint.get(fingerprint);
    if (reader == null) {
      throw undecodable("unknown writer schema fingerprint " + Long.toHexString(fingerprint), null);
    }
    try {
      BoundedDecoder decoder = new BoundedDecoder(bytes, HEADER_BYTES, bytes.length - HEADER_BYTES);
      T record = reader.read(null, decoder);
      if (decoder.remaining() != 0) {
        throw undecodable(decoder.remaining() + " bytes after the record", null);
      }
      return record;
    } catch (IOException | RuntimeException e) { // Avro throws a zoo of unchecked ones on bad input
      throw e instanceof SerializationException known ? known : undecodable(e.toString(), e);
    }
  }

  private SerializationException undecodable(String why, Throwable cause) {
    return new SerializationException("undecodable " + schema.getName() + ": " + why, cause);
  }

  @Override
  public byte[] serialize(String topic, T data) {
    return data == null ? null : encode(data);
  }

  @Override
  public T deserialize(String topic, byte[] data) {
    return data == null ? null : decode(data);
  }

  @Override
  public Serializer<T> serializer() {
    return this;
  }

  @Override
  public Deserializer<T> deserializer() {
    return this;
  }

  @Override
  public void configure(java.util.Map<String, ?> configs, boolean isKey) {}

  @Override
  public void close() {}
}
