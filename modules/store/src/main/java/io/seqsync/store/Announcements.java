package io.seqsync.store;

import io.seqsync.events.EventSerdes;
import io.seqsync.events.model.Announcement;
import io.seqsync.events.model.OutcomeKind;
import io.seqsync.events.model.StoredOutcome;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.errors.SerializationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The announcement of what the projection has stored: one record of the announcements topic per
 * committed projector batch, holding each command's {@link Outcome}, so that every ingress
 * instance answers its waiting sends only after PostgreSQL committed the rows (store, then
 * announce: R1). It travels through Kafka, not Redis, so a Redis outage costs no send its answer.
 * Best effort: a missed announcement makes a send answer 202, never a wrong answer.
 */
public final class Announcements {
  private static final Logger log = LoggerFactory.getLogger(Announcements.class);

  private Announcements() {}

  /** The record value announcing {@code outcomes}. */
  public static byte[] encode(List<Outcome> outcomes) {
    List<StoredOutcome> stored = new ArrayList<>(outcomes.size());
    for (Outcome outcome : outcomes) {
      stored.add(new StoredOutcome(OutcomeKind.valueOf(outcome.kind().name()), outcome.commandId(), outcome.convId(),
          outcome.seq(), outcome.msgId(), outcome.createTime(), outcome.reason()));
    }
    return EventSerdes.announcement().encode(new Announcement(stored));
  }

  /**
   * The outcomes a record value announces; one that does not decode is logged and yields none, as
   * does an outcome of a kind this version does not know.
   */
  public static List<Outcome> decode(byte[] value) {
    Announcement announcement;
    try {
      announcement = EventSerdes.announcement().decode(value);
    } catch (SerializationException e) {
      log.warn("ignoring an announcement that does not decode: {}", e.getMessage());
      return List.of();
    }
    List<Outcome> outcomes = new ArrayList<>(announcement.getOutcomes().size());
    for (StoredOutcome stored : announcement.getOutcomes()) {
      if (stored.getKind() == OutcomeKind.UNKNOWN) {
        continue;
      }
      outcomes.add(new Outcome(Outcome.Kind.valueOf(stored.getKind().name()), stored.getCommandId(),
          stored.getConvId(), stored.getSeq(), stored.getMsgId(), stored.getCreateTime(), stored.getReason()));
    }
    return outcomes;
  }
}
