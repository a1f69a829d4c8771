package io.seqsync.events;

import io.seqsync.config.KafkaSettings;
import io.seqsync.events.model.Announcement;
import io.seqsync.events.model.Command;
import io.seqsync.events.model.DeliveryReport;
import io.seqsync.events.model.DuplicateCommand;
import io.seqsync.events.model.Event;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;

/**
 * The topics of seqsync, declared once. Commands and events are keyed by convId and have the same
 * partition count, so everything that happens to a conversation is totally ordered in one
 * partition of each.
 */
public final class Topics {
  private static final String FOREVER = "-1";
  private static final String WEEK_MS = String.valueOf(7L * 24 * 3600 * 1000);
  private static final String DAY_MS = String.valueOf(24L * 3600 * 1000);
  private static final String MONTH_MS = String.valueOf(30L * 24 * 3600 * 1000);
  private static final String HOUR_MS = String.valueOf(3600L * 1000);
  private static final String QUARTER_MS = String.valueOf(92L * 24 * 3600 * 1000);

  private final Topic<String, Command> commands;
  private final Topic<String, Event> events;
  private final Topic<String, DuplicateCommand> replies;
  private final Topic<byte[], byte[]> deadLetters;
  private final Topic<String, DeliveryReport> telemetry;
  private final Topic<byte[], Announcement> announcements;

  private Topics(String prefix, int partitions, short minInsyncReplicas) {
    Map<String, String> durability = Map.of("min.insync.replicas", String.valueOf(minInsyncReplicas));
    // Commands are consumed once by the sequencer; a week leaves room for an outage.
    commands = new Topic<>(prefix + "commands", partitions, Serdes.String(), EventSerdes.command(),
        with(durability, "retention.ms", WEEK_MS));
    // The event log is the store of record: every projection is rebuilt from it, so it is kept forever.
    events = new Topic<>(prefix + "events", partitions, Serdes.String(), EventSerdes.event(),
        with(durability, "retention.ms", FOREVER, "retention.bytes", FOREVER));
    // Replies only matter while an ingress waits for them.
    replies = new Topic<>(prefix + "replies", partitions, Serdes.String(), EventSerdes.duplicate(),
        with(durability, "retention.ms", DAY_MS));
    deadLetters = new Topic<>(prefix + "commands.dlq", 1, Serdes.ByteArray(), Serdes.ByteArray(),
        with(durability, "retention.ms", MONTH_MS));
    // Delivery reports feed monthly figures reviewed each quarter (R24): a quarter can be replayed.
    telemetry = new Topic<>(prefix + "telemetry", partitions, Serdes.String(), EventSerdes.deliveryReport(),
        with(durability, "retention.ms", QUARTER_MS));
    // Announcements matter for the seconds an ingress waits for a reply. Nothing transactional writes
    // here, so a read_committed reader is never held behind an open transaction (the replies topic's
    // readers wait for the sequencer's commits).
    announcements = new Topic<>(prefix + "announcements", partitions, Serdes.ByteArray(), EventSerdes.announcement(),
        with(durability, "retention.ms", HOUR_MS));
  }

  public static Topics from(KafkaSettings kafka) {
    return new Topics(kafka.topicPrefix(), kafka.commandPartitions(), kafka.minInsyncReplicas());
  }

  // A topic's own settings plus the durability every topic shares (min.insync.replicas: with
  // acks=all a write is refused, not half-acknowledged, while fewer replicas are in sync).
  private static Map<String, String> with(Map<String, String> durability, String... settings) {
    Map<String, String> configs = new HashMap<>(durability);
    for (int i = 0; i < settings.length; i += 2) {
      configs.put(settings[i], settings[i + 1]);
    }
    return Map.copyOf(configs);
  }

  /** Client commands, keyed by convId. */
  public Topic<String, Command> commands() {
    return commands;
  }

  /** Sequenced events, keyed by convId: the event log every projection is built from. */
  public Topic<String, Event> events() {
    return events;
  }

  /** Answers to commands that produced no event (duplicates), keyed by convId. */
  public Topic<String, DuplicateCommand> replies() {
    return replies;
  }

  /** Commands that could not be decoded or were invalid, as received, with the reason in headers. */
  public Topic<byte[], byte[]> deadLetters() {
    return deadLetters;
  }

  /** Clients' delivery reports (R17, R24), keyed by convId; read by the delivery projector. */
  public Topic<String, DeliveryReport> telemetry() {
    return telemetry;
  }

  /**
   * What the commands of each committed projector batch came to, unkeyed: read whole by every
   * ingress instance, which answers the sends it waits for.
   */
  public Topic<byte[], Announcement> announcements() {
    return announcements;
  }

  public List<Topic<?, ?>> all() {
    return List.of(commands, events, replies, deadLetters, telemetry, announcements);
  }
}
