package io.seqsync.ingress.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.seqsync.events.ConvId;
import io.seqsync.events.model.RenderFailed;
import io.seqsync.events.model.Rendered;
import io.seqsync.ingress.http.ApiException;
import io.seqsync.ingress.http.Json;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * The bodies of delivery reports (R17, R24), checked field by field: every item valid or the whole
 * request is a 400 (413 beyond {@link #MAX_ITEMS}), so nothing is half-recorded. Whether an item
 * names a real message is the delivery projector's to find out (a report that matches none is
 * counted, never stored). Also the period of the delivery figures.
 */
final class DeliveryRequests {
  /** Items per request: a client reports what it rendered since its last report, in batches. */
  static final int MAX_ITEMS = 100;
  /** A failure's reason: a short diagnostic, not a dump. */
  static final int MAX_REASON_CHARS = 500;
  /** The longest period of the figures: a quarter, as long as the telemetry topic keeps reports. */
  static final int MAX_PERIOD_DAYS = 92;

  /** One item: the message it is about, and what became of it ({@link Rendered} or {@link RenderFailed}). */
  record Item(ConvId convId, long seq, long msgId, Object outcome) {}

  /** Whole UTC days, {@code from} inclusive, {@code to} exclusive. */
  record Period(LocalDate from, LocalDate to) {
    long fromMillis() {
      return from.atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
    }

    long toMillis() {
      return to.atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
    }
  }

  private interface OutcomeReader {
    Object read(ObjectNode item, String prefix);
  }

  private DeliveryRequests() {}

  /** {@code {"items":[{"msgId","convId","seq","sendTime","renderTime"}, ...]}}. */
  static List<Item> rendered(ObjectNode body) {
    return items(body, "{msgId, convId, seq, sendTime, renderTime}", (item, prefix) -> new Rendered(
        Json.seq(item.get("sendTime"), prefix + "sendTime"), Json.seq(item.get("renderTime"), prefix + "renderTime")));
  }

  /** {@code {"items":[{"msgId","convId","seq","reason"}, ...]}}. */
  static List<Item> failures(ObjectNode body) {
    return items(body, "{msgId, convId, seq, reason}", (item, prefix) -> {
      String reason = Json.text(item, "reason");
      if (reason.isBlank() || reason.length() > MAX_REASON_CHARS) {
        throw ApiException.badRequest("invalid_field",
            prefix + "reason must be 1 to " + MAX_REASON_CHARS + " characters, not blank");
      }
      return new RenderFailed(reason);
    });
  }

  /**
   * {@code from} and {@code to} ({@code YYYY-MM-DD}, UTC; {@code to} exclusive), by default this month
   * up to and including today; at most {@link #MAX_PERIOD_DAYS} days.
   */
  static Period period(String from, String to, LocalDate today) {
    LocalDate start = from == null ? today.withDayOfMonth(1) : date(from, "from");
    LocalDate end = to == null ? today.plusDays(1) : date(to, "to");
    if (!start.isBefore(end) || start.plusDays(MAX_PERIOD_DAYS).isBefore(end)) {
      throw ApiException.badRequest("invalid_period",
          "from must come before to, at most " + MAX_PERIOD_DAYS + " days apart");
    }
    return new Period(start, end);
  }

  private static LocalDate date(String text, String field) {
    try {
      return LocalDate.parse(text);
    } catch (DateTimeException e) {
      throw ApiException.badRequest("invalid_field", field + " must be a date YYYY-MM-DD, got '"
          + AccessControl.abbreviate(text) + "'");
    }
  }

  private static List<Item> items(ObjectNode body, String shape, OutcomeReader outcome) {
    List<ObjectNode> objects = Json.objects(body, "items", MAX_ITEMS, "too_many_items", shape);
    List<Item> items = new ArrayList<>(objects.size());
    for (int i = 0; i < objects.size(); i++) {
      ObjectNode item = objects.get(i);
      String prefix = "items[" + i + "].";
      long seq = Json.seq(item.get("seq"), prefix + "seq");
      if (seq == 0) {
        throw ApiException.badRequest("invalid_field", prefix + "seq must be positive");
      }
      items.add(new Item(PositionRequests.convId(item, prefix), seq,
          Json.id(item.get("msgId"), prefix + "msgId", "a message id"), outcome.read(item, prefix)));
    }
    return items;
  }
}
