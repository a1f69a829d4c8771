package io.seqsync.events;

import io.seqsync.events.model.Announcement;
import io.seqsync.events.model.Command;
import io.seqsync.events.model.DeliveryReport;
import io.seqsync.events.model.DuplicateCommand;
import io.seqsync.events.model.Event;

/** The serde of each record type, shared: they are thread-safe. Replace {@link AvroSerde} here to change the encoding. */
public final class EventSerdes {
  private static final AvroSerde<Command> COMMAND = new AvroSerde<>(Command.getClassSchema(), SchemaHistory.released());
  private static final AvroSerde<Event> EVENT = new AvroSerde<>(Event.getClassSchema(), SchemaHistory.released());
  private static final AvroSerde<DuplicateCommand> DUPLICATE =
      new AvroSerde<>(DuplicateCommand.getClassSchema(), SchemaHistory.released());
  private static final AvroSerde<DeliveryReport> DELIVERY_REPORT =
      new AvroSerde<>(DeliveryReport.getClassSchema(), SchemaHistory.released());
  private static final AvroSerde<Announcement> ANNOUNCEMENT =
      new AvroSerde<>(Announcement.getClassSchema(), SchemaHistory.released());

  private EventSerdes() {}

  public static AvroSerde<Command> command() {
    return COMMAND;
  }

  public static AvroSerde<Event> event() {
    return EVENT;
  }

  public static AvroSerde<DuplicateCommand> duplicate() {
    return DUPLICATE;
  }

  public static AvroSerde<DeliveryReport> deliveryReport() {
    return DELIVERY_REPORT;
  }

  public static AvroSerde<Announcement> announcement() {
    return ANNOUNCEMENT;
  }
}
