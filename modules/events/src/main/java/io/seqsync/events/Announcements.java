package io.seqsync.events;

import io.seqsync.events.model.Announcement;
import io.seqsync.events.model.OutcomeKind;
import io.seqsync.events.model.StoredOutcome;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.errors.SerializationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The records of the announcements topic: one per committed projector batch, holding what each of
 * its commands came to (a {@link StoredOutcome}: {@code APPENDED}, a message, recall notice or
 * membership notice stored at {@code seq}; {@code APPLIED}, a cursor, read or draft change stored,
 * seq the new position, 0 for a draft; {@code REJECTED}, nothing stored, {@code reason} says why),
 * so that every ingress instance answers its waiting sends only after PostgreSQL committed the
 * rows (store, then announce). An appended message's {@code createTime} comes along, so that a
 * send can be answered from its command and its outcome without reading the row back (0 for the
 * other kinds). It travels through Kafka, not Redis, so a Redis outage costs no send its answer.
 * Best effort: a missed announcement makes a send answer 202, never a wrong answer.
 */
public final class Announcements {
  private static final Logger log = LoggerFactory.getLogger(Announcements.class);

  private Announcements() {}

  public static StoredOutcome appended(String commandId, String convId, long seq, long msgId, long createTime) {
    return new StoredOutcome(OutcomeKind.APPENDED, commandId, convId, seq, msgId, createTime, "");
  }

  public static StoredOutcome applied(String commandId, String convId, long seq) {
    return new StoredOutcome(OutcomeKind.APPLIED, commandId, convId, seq, 0L, 0L, "");
  }

  public static StoredOutcome rejected(String commandId, String convId, String reason) {
    return new StoredOutcome(OutcomeKind.REJECTED, commandId, convId, 0L, 0L, 0L, reason);
  }

  /** The record value announcing {@code outcomes}. */
  public static byte[] encode(List<StoredOutcome> outcomes) {
    return EventSerdes.announcement().encode(new Announcement(List.copyOf(outcomes)));
  }

  /**
   * The outcomes a record value announces; one that does not decode is logged and yields none, as
   * does an outcome of a kind this version does not know.
   */
  public static List<StoredOutcome> decode(byte[] value) {
    Announcement announcement;
    try {
      announcement = EventSerdes.announcement().decode(value);
    } catch (SerializationException e) {
      log.warn("ignoring an announcement that does not decode: {}", e.getMessage());
      return List.of();
    }
    List<StoredOutcome> outcomes = new ArrayList<>(announcement.getOutcomes().size());
    for (StoredOutcome outcome : announcement.getOutcomes()) {
      if (outcome.getKind() != OutcomeKind.UNKNOWN) {
        outcomes.add(outcome);
      }
    }
    return outcomes;
  }
}
