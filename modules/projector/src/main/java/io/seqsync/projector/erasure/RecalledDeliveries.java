package io.seqsync.projector.erasure;

import java.util.List;
import org.jdbi.v3.core.Handle;

/**
 * A recall's erasure of what the notifier holds in the clear (docs/design.md, "Erasure"): the
 * notifier opens texts when it plans a delivery, so a pending or dead-lettered push of the recalled
 * message (channel {@code push}, its seq) and a webhook of its send or of an edit of it (channel
 * {@code webhooks}, a payload naming the seq) are deleted with its keys. A delivery planned after
 * the keys are gone reads {@code [erased]}. Stateless.
 */
public final class RecalledDeliveries {
  // A webhook's payload is the JSON of WebhookEvents: message.sent names its message as "seq":N, and
  // message.edited its target as "editedSeq":N (a text inside the message is escaped and never matches).
  private static final String PURGE = "delete from %s where stream = :conv and (channel = 'push' and seq = :seq"
      + " or channel = 'webhooks' and (position(convert_to('\"type\":\"message.sent\"', 'UTF8') in payload) > 0"
      + " and position(convert_to('\"seq\":' || cast(:seq as text) || ',', 'UTF8') in payload) > 0"
      + " or position(convert_to('\"editedSeq\":' || cast(:seq as text) || ',', 'UTF8') in payload) > 0))";

  private RecalledDeliveries() {}

  /** Deletes the deliveries of the message at {@code seq} of {@code convId} through {@code home} (the notifier's tables); returns how many. */
  public static int purge(Handle home, String convId, long seq) {
    int rows = 0;
    for (String table : List.of("notifier_outbox", "notifier_dead_letters")) {
      rows += home.createUpdate(PURGE.formatted(table)).bind("conv", convId).bind("seq", seq).execute();
    }
    return rows;
  }
}
