package io.seqsync.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seqsync.events.model.ChangeMembership;
import io.seqsync.events.model.Command;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

class SchemaEvolutionTest {

  @Test
  void aRecordWrittenWithAnOlderSchemaDecodesIntoTheCurrentClass() throws IOException {
    Schema older = olderCommandSchema();
    byte[] written = encodeWithOlderSchema(older);
    AvroSerde<Command> serde = new AvroSerde<>(Command.getClassSchema(), SchemaHistory.released());
    serde.addWriterSchema(older);

    Command command = serde.decode(written);

    assertThat(command.getConvId()).isEqualTo("g:team");
    ChangeMembership change = (ChangeMembership) command.getPayload();
    assertThat(change.getAdd()).containsExactly(7L, 8L);
    assertThat(change.getGroupName()).as("the field added later takes its default").isNull();
  }

  @Test
  void aWriterSchemaTheDecoderDoesNotKnowIsRefusedNotGuessed() throws IOException {
    byte[] written = encodeWithOlderSchema(olderCommandSchema());
    AvroSerde<Command> serde = new AvroSerde<>(Command.getClassSchema(), SchemaHistory.released());

    assertThatThrownBy(() -> serde.decode(written)).isInstanceOf(SerializationException.class);
  }

  @Test
  void recordsRoundTripThroughTheSingleObjectEncoding() {
    Command command = new Commands(42, "phone").sendText("d:1:42", "c-1", "héllo");

    byte[] bytes = EventSerdes.command().encode(command);

    assertThat(bytes[0]).as("single-object marker").isEqualTo((byte) 0xC3);
    assertThat(bytes[1]).isEqualTo((byte) 0x01);
    assertThat(EventSerdes.command().decode(bytes)).isEqualTo(command);
  }

  private static byte[] encodeWithOlderSchema(Schema older) throws IOException {
    Schema changeSchema = older.getField("payload").schema().getTypes().stream()
        .filter(type -> type.getName().equals("ChangeMembership")).findFirst().orElseThrow();
    GenericRecord change = new GenericData.Record(changeSchema);
    change.put("add", List.of(7L, 8L));
    change.put("remove", List.of());
    GenericRecord command = new GenericData.Record(older);
    command.put("commandId", "cmd-1");
    command.put("convId", "g:team");
    command.put("userId", 7L);
    command.put("deviceId", "phone");
    command.put("issuedAt", 1L);
    command.put("payload", change);
    ByteBuffer buffer = new BinaryMessageEncoder<GenericRecord>(GenericData.get(), older).encode(command);
    byte[] bytes = new byte[buffer.remaining()];
    buffer.get(bytes);
    return bytes;
  }

  private static Schema olderCommandSchema() throws IOException {
    try (InputStream in = SchemaEvolutionTest.class.getResourceAsStream("/evolution/Command-before-groupName.avsc")) {
      return new Schema.Parser().parse(in);
    }
  }
}
