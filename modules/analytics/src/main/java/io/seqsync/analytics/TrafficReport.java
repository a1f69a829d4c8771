package io.seqsync.analytics;

import io.seqsync.events.AppendedMessages;
import io.seqsync.events.model.CommandRejected;
import io.seqsync.events.model.CursorAdvanced;
import io.seqsync.events.model.DraftUpdated;
import io.seqsync.events.model.Event;
import io.seqsync.events.model.GroupRolesChanged;
import io.seqsync.events.model.GroupSettingsChanged;
import io.seqsync.events.model.MembershipChanged;
import io.seqsync.events.model.Message;
import io.seqsync.events.model.ReadAdvanced;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Traffic per period (UTC hours or days, by the time the sequencer appended each event), counted
 * from the event log: messages by type, distinct senders and conversations, delivery and read
 * positions moved, drafts, rejected commands. It also audits the log itself: within each
 * conversation every message's seq must follow the one before it (R3, R25), and any other step
 * is reported. Not thread-safe: fed by one scan.
 */
public final class TrafficReport {
  /** How many of the seq anomalies are listed (all are counted). */
  static final int LISTED_ANOMALIES = 100;

  /** The length of a report's periods. */
  public enum Period {
    HOUR(ChronoUnit.HOURS), DAY(ChronoUnit.DAYS);

    private final ChronoUnit unit;

    Period(ChronoUnit unit) {
      this.unit = unit;
    }

    /** {@code hour} or {@code day}, in any case. */
    public static Period parse(String text) {
      try {
        return valueOf(text.trim().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--period must be hour or day: " + text);
      }
    }
  }

  /** One period's figures; the maps are keyed by the schema's symbol names. */
  public record PeriodFigures(
      String start, long messages, Map<String, Long> messagesByType, int senders, int conversations,
      long deliveryCursorMoves, long readMoves, long draftUpdates, long membershipChanges,
      Map<String, Long> rejectedByReason) {}

  /** A message whose seq did not follow its conversation's previous one in the log. */
  public record SeqAnomaly(String convId, long previousSeq, long seq) {}

  private final Period period;
  private final long sinceMillis;
  private final TreeMap<Instant, Counts> periods = new TreeMap<>();
  private final Map<String, Long> lastSeqs = new HashMap<>();
  private final List<SeqAnomaly> anomalies = new ArrayList<>();
  private long anomalyCount;

  /** A report by {@code period} counting the events appended at or after {@code since}. */
  public TrafficReport(Period period, Instant since) {
    this.period = period;
    this.sinceMillis = since.toEpochMilli();
  }

  /**
   * Counts one event. Events must come in their partition's order; events before {@code since}
   * are not counted but still seed their conversation's seq audit.
   */
  public void add(Event event) {
    // Every message or notice takes a seq (edits and reactions too): the audit sees them all.
    Message message = AppendedMessages.of(event.getPayload());
    if (message != null) {
      audit(message);
    }
    if (event.getTime() < sinceMillis) {
      return;
    }
    Counts counts = periods.computeIfAbsent(Instant.ofEpochMilli(event.getTime()).truncatedTo(period.unit),
        start -> new Counts());
    if (message != null) {
      counts.messages.merge(message.getType().name(), 1L, Long::sum);
      counts.senders.add(message.getSenderId());
      counts.conversations.add(message.getConvId());
    }
    Object payload = event.getPayload();
    if (payload instanceof CursorAdvanced) {
      counts.deliveryCursorMoves++;
    } else if (payload instanceof ReadAdvanced) {
      counts.readMoves++;
    } else if (payload instanceof DraftUpdated) {
      counts.draftUpdates++;
    } else if (payload instanceof MembershipChanged || payload instanceof GroupRolesChanged
        || payload instanceof GroupSettingsChanged) {
      counts.membershipChanges++;
    } else if (payload instanceof CommandRejected rejected) {
      counts.rejected.merge(rejected.getReason().name(), 1L, Long::sum);
    }
  }

  /** The figures of every period with an event, oldest first. */
  public List<PeriodFigures> periods() {
    List<PeriodFigures> figures = new ArrayList<>();
    periods.forEach((start, counts) -> figures.add(counts.figures(start)));
    return figures;
  }

  /** How many messages broke their conversation's seq order. */
  public long seqAnomalyCount() {
    return anomalyCount;
  }

  /** The first {@value #LISTED_ANOMALIES} of them, in the order they were read. */
  public List<SeqAnomaly> seqAnomalies() {
    return List.copyOf(anomalies);
  }

  private void audit(Message message) {
    Long previous = lastSeqs.put(message.getConvId(), message.getSeq());
    if (previous != null && message.getSeq() != previous + 1) {
      anomalyCount++;
      if (anomalies.size() < LISTED_ANOMALIES) {
        anomalies.add(new SeqAnomaly(message.getConvId(), previous, message.getSeq()));
      }
    }
  }

  private static final class Counts {
    private final Map<String, Long> messages = new TreeMap<>();
    private final Set<Long> senders = new HashSet<>();
    private final Set<String> conversations = new HashSet<>();
    private final Map<String, Long> rejected = new TreeMap<>();
    private long deliveryCursorMoves;
    private long readMoves;
    private long draftUpdates;
    private long membershipChanges;

    PeriodFigures figures(Instant start) {
      long total = messages.values().stream().mapToLong(Long::longValue).sum();
      return new PeriodFigures(start.toString(), total, Collections.unmodifiableMap(new TreeMap<>(messages)),
          senders.size(), conversations.size(), deliveryCursorMoves, readMoves, draftUpdates, membershipChanges,
          Collections.unmodifiableMap(new TreeMap<>(rejected)));
    }
  }
}
