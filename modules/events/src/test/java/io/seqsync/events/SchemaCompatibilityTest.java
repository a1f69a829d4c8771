package io.seqsync.events;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqsync.events.model.Announcement;
import io.seqsync.events.model.Command;
import io.seqsync.events.model.DeliveryReport;
import io.seqsync.events.model.DuplicateCommand;
import io.seqsync.events.model.Event;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * Fails the build when schemas/current can no longer read a released version: old records stay in
 * the event log forever, so every change must be backward compatible.
 */
class SchemaCompatibilityTest {

  static List<Schema> topicSchemas() {
    return List.of(Command.getClassSchema(), Event.getClassSchema(), DuplicateCommand.getClassSchema(),
        DeliveryReport.getClassSchema(), Announcement.getClassSchema());
  }

  @ParameterizedTest
  @MethodSource("topicSchemas")
  void currentSchemaReadsEveryReleasedVersion(Schema current) {
    List<Schema> released = SchemaHistory.released().versionsOf(current.getFullName());
    assertThat(released).as("%s must be listed in schemas/released/INDEX", current.getFullName()).isNotEmpty();
    for (Schema writer : released) {
      SchemaCompatibility.SchemaPairCompatibility result =
          SchemaCompatibility.checkReaderWriterCompatibility(current, writer);
      assertThat(result.getType()).as("%s reading a released version: %s", current.getName(), result.getDescription())
          .isEqualTo(SchemaCompatibilityType.COMPATIBLE);
    }
  }

  @Test
  void theCheckCatchesABreakingChange() {
    Schema released = SchemaHistory.released().versionsOf(DuplicateCommand.getClassSchema().getFullName()).get(0);
    Schema breaking = SchemaBuilder.record("DuplicateCommand").namespace("io.seqsync.events.model").fields()
        .requiredString("commandId").requiredString("convId").requiredLong("msgId").requiredLong("seq")
        .requiredString("addedWithoutDefault")
        .endRecord();

    assertThat(SchemaCompatibility.checkReaderWriterCompatibility(breaking, released).getType())
        .isEqualTo(SchemaCompatibilityType.INCOMPATIBLE);
  }
}
