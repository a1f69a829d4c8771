package io.seqsync.projector.postgres;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Jdbi;

/**
 * The archive job (R22): moves messages older than the hot window from {@code messages} to
 * {@code archived_messages}, one day (UTC) of messages at a time, oldest first. For each
 * conversation with messages created that day it moves the whole prefix of seqs up to the last of
 * them, in transactions of at most {@link #CHUNK} rows, each also raising the conversation's
 * {@code archived_seq}; so a conversation's hot table always holds exactly the seqs above its
 * {@code archived_seq}, whatever the clocks did. Restartable anywhere: a chunk is moved whole or
 * not at all, and a day already moved finds nothing left to move. Each chunk locks its
 * conversation's row first, as the projector does, so the two never deadlock and a recall in the
 * projector's batch finds its message in one table or the other. Thread-safe, but meant to run
 * on one thread of one instance at a time (two would only wait for each other's locks).
 */
public final class MessageArchive {
  /** Rows per transaction: a busy group's day is moved in bounded steps. */
  static final int CHUNK = 5_000;

  /** What one run moved. */
  public record Moved(int days, long messages) {}

  // One chunk's transaction: the rows it moved, and whether the prefix is now all moved.
  private record Step(long rows, boolean done) {}

  private final Jdbi jdbi;
  private final int hotDays;

  /** {@code hotDays}: how many days (UTC, today included) stay in the hot table. */
  public MessageArchive(Jdbi jdbi, int hotDays) {
    this.jdbi = jdbi;
    this.hotDays = hotDays;
  }

  /**
   * Moves every day before the hot window as it stands at {@code now}, from the day of the oldest
   * message in the hot table on (days already moved are not visited again).
   */
  public Moved run(Instant now) {
    LocalDate firstHotDay = LocalDate.ofInstant(now, ZoneOffset.UTC).minusDays(hotDays - 1L);
    Long oldest = jdbi.withHandle(handle -> handle.createQuery("select min(create_time) from messages")
        .mapTo(Long.class).one());
    int days = 0;
    long messages = 0;
    if (oldest != null) {
      for (LocalDate day = LocalDate.ofInstant(Instant.ofEpochMilli(oldest), ZoneOffset.UTC); day.isBefore(firstHotDay);
          day = day.plusDays(1)) {
        messages += moveDay(day);
        days++;
      }
    }
    return new Moved(days, messages);
  }

  /** Moves {@code day}'s messages (with every older seq of their conversations); returns how many rows moved. */
  public long moveDay(LocalDate day) {
    List<Map.Entry<String, Long>> prefixes = jdbi.withHandle(handle -> handle.createQuery(
            "select conv_id, max(seq) as last from messages where create_time >= ? and create_time < ? group by conv_id")
        .bind(0, startMillis(day)).bind(1, startMillis(day.plusDays(1)))
        .map((row, ctx) -> Map.entry(row.getString("conv_id"), row.getLong("last")))
        .list());
    long moved = 0;
    for (Map.Entry<String, Long> prefix : prefixes) {
      moved += movePrefix(prefix.getKey(), prefix.getValue());
    }
    long total = moved;
    jdbi.useHandle(handle -> handle.execute("insert into archived_days (day, messages) values (?, ?) on conflict (day)"
        + " do update set messages = archived_days.messages + excluded.messages, finished_at = now()", day, total));
    return moved;
  }

  private long movePrefix(String convId, long lastSeq) {
    long moved = 0;
    Step step;
    do {
      step = jdbi.inTransaction(handle -> {
        Long archived = handle.createQuery("select archived_seq from conversations where conv_id = ? for update")
            .bind(0, convId).mapTo(Long.class).findOne().orElse(null);
        if (archived == null || archived >= lastSeq) {
          return new Step(0, true);
        }
        long upTo = Math.min(lastSeq, archived + CHUNK);
        int rows = handle.createUpdate("with moved as (delete from messages where conv_id = ? and seq > ? and seq <= ?"
                + " returning *) insert into archived_messages select * from moved on conflict do nothing")
            .bind(0, convId).bind(1, archived).bind(2, upTo).execute();
        handle.execute("update conversations set archived_seq = ? where conv_id = ?", upTo, convId);
        return new Step(rows, upTo == lastSeq);
      });
      moved += step.rows();
    } while (!step.done());
    return moved;
  }

  private static long startMillis(LocalDate day) {
    return day.atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
  }
}
