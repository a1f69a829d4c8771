package io.seqsync.store;

import io.seqsync.store.ConversationQueries.SyncRow;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import io.seqsync.store.shard.ShardMap;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.Query;

/**
 * The handshake (R13), one bounded page at a time: whatever the number of conversations a user is
 * in, a page reads at most {@link #scan()} of the user's memberships, in the order of the
 * membership index ({@code conversation_members_user_idx}: user, convId), from where the previous
 * page stopped, and answers at most {@link #pageSize()} of them. Thread-safe: holds only the
 * (thread-safe) Jdbi.
 */
public final class SyncQueries {
  /**
   * Memberships read per page for each row it may answer: a reconnect with little new reads ten
   * rows for each it answers, so a page answers in about the time of a full one.
   */
  public static final int SCAN_PER_ROW = 10;

  // The next memberships in index order (an index range from the previous page's last convId: the
  // empty string is below every id), those with something new for the device (latest_seq above the
  // cursor the client reported for it or, for one it did not report, above the device's server
  // cursor) up to the page size; then their read positions and unread counts (at most a page's).
  // The first row also says how far the page read, and a page with nothing new still has that row.
  // Each table is probed by its key per membership read (LATERAL ... OFFSET 0 keeps the planner from
  // merge-joining the whole conversations table in key order instead: 50,000 rows read for a page
  // from the middle of 100,000); the client's cursors (at most 10,000) are joined as one set.
  static final String PAGE = "with scanned as materialized ("
      + " select cm.conv_id from conversation_members cm"
      + " where cm.user_id = :user and cm.conv_id > coalesce(cast(:after as text), '')"
      + " order by cm.user_id, cm.conv_id limit :scan),"
      + " fresh as materialized ("
      + " select s.conv_id, c.latest_seq, c.last_activity, coalesce(dc.seq, 0) as device_cursor"
      + " from scanned s"
      + " cross join lateral (select latest_seq, last_activity from conversations where conv_id = s.conv_id offset 0) c"
      + " left join lateral (select seq from device_cursors"
      + " where user_id = :user and device_id = :device and conv_id = s.conv_id offset 0) dc on true"
      + " left join unnest(cast(:convs as text[]), cast(:seqs as bigint[])) as client(conv_id, seq)"
      + " on client.conv_id = s.conv_id"
      + " where c.latest_seq > coalesce(client.seq, dc.seq, 0)"
      + " order by s.conv_id limit :limit)"
      + " select (select count(*) from scanned) as scanned, (select max(conv_id) from scanned) as scanned_last,"
      + " (select count(*) from fresh) as answered, (select max(conv_id) from fresh) as answered_last,"
      + " c.conv_id, c.latest_seq, c.last_activity, c.device_cursor, coalesce(rp.seq, 0) as read_seq, "
      + ConversationQueries.UNREAD + " as unread"
      + " from (select 1) page left join fresh c on true"
      + " left join lateral (select seq from read_positions where user_id = :user and conv_id = c.conv_id offset 0) rp on true"
      + " order by c.last_activity desc, c.conv_id";

  /**
   * One page of a handshake: its conversations with something new, most recently active first, and
   * the convId after which the next page starts (empty: this was the last).
   */
  public record Page(List<SyncRow> rows, Optional<String> next) {
    public Page {
      rows = List.copyOf(rows);
    }
  }

  private final ShardMap shards;
  private final int pageSize;
  private final SyncScreens screens;
  private final int screenConversations;
  private final long screenBytes;

  /** As {@link #SyncQueries(ShardMap, int, int, long)}, on one database for every conversation. */
  public SyncQueries(Jdbi jdbi, int pageSize, int screenConversations, long screenBytes) {
    this(ShardMap.single(jdbi), pageSize, screenConversations, screenBytes);
  }

  /**
   * Pages of at most {@code pageSize} conversations, reading at most {@link #SCAN_PER_ROW} times that
   * many memberships, with first screens ({@link SyncScreens}) for at most {@code screenConversations}
   * of a page's conversations (0: none) and {@code screenBytes} of content in all; each
   * conversation's rows in its shard of {@code shards}.
   */
  public SyncQueries(ShardMap shards, int pageSize, int screenConversations, long screenBytes) {
    if (pageSize <= 0 || screenConversations < 0 || screenBytes < 0) {
      throw new IllegalArgumentException("pageSize must be positive, the screens' bounds not negative");
    }
    this.shards = shards;
    this.pageSize = pageSize;
    this.screens = new SyncScreens(shards);
    this.screenConversations = screenConversations;
    this.screenBytes = screenBytes;
  }

  public int pageSize() {
    return pageSize;
  }

  /**
   * The first screens of a page's first {@code screenConversations} asks (most recently active
   * first), within {@code screenBytes}.
   */
  public Map<String, SyncScreens.Screen> screens(long userId, List<SyncScreens.Ask> asks) {
    List<SyncScreens.Ask> carried = asks.subList(0, Math.min(asks.size(), screenConversations));
    return screens.screens(userId, carried, screenBytes);
  }

  /** Memberships a page reads at most. */
  public int scan() {
    return pageSize * SCAN_PER_ROW;
  }

  /**
   * The page of the user's handshake after the conversation {@code after} (null: the first page).
   * {@code clientCursors} maps convId to the seq the device reports; a conversation it does not
   * report (one it does not know, say) is compared with the device's server cursor instead. Unread
   * counts other users' countable messages above the user's read position that are not recalled.
   */
  public Page page(long userId, String deviceId, Map<String, Long> clientCursors, String after) {
    List<SyncPageMerge.ShardPage> pages = shards.fanOut(jdbi -> page(jdbi, userId, deviceId, clientCursors, after));
    return pages.size() == 1 ? pages.get(0).page() : SyncPageMerge.merge(pages, pageSize);
  }

  private SyncPageMerge.ShardPage page(Jdbi jdbi, long userId, String deviceId, Map<String, Long> clientCursors,
      String after) {
    return jdbi.withHandle(handle -> {
      List<SyncRow> rows = new ArrayList<>();
      Map<String, Long> activity = new HashMap<>();
      Progress progress = bind(handle.createQuery(PAGE), userId, deviceId, clientCursors, after)
          .map((rs, ctx) -> {
            if (rs.getString("conv_id") != null) {
              rows.add(new SyncRow(rs.getString("conv_id"), rs.getLong("latest_seq"), rs.getLong("device_cursor"),
                  rs.getLong("read_seq"), rs.getLong("unread")));
              activity.put(rs.getString("conv_id"), rs.getLong("last_activity"));
            }
            return new Progress(rs.getInt("scanned"), rs.getString("scanned_last"), rs.getInt("answered"),
                rs.getString("answered_last"));
          })
          .list().get(0);
      return new SyncPageMerge.ShardPage(new Page(rows, progress.next(pageSize, scan())), activity);
    });
  }

  /** {@code query} ({@link #PAGE}, or its plan) with the page's parameters bound. */
  Query bind(Query query, long userId, String deviceId, Map<String, Long> clientCursors, String after) {
    List<String> convs = new ArrayList<>(clientCursors.size());
    List<Long> seqs = new ArrayList<>(clientCursors.size());
    clientCursors.forEach((conv, seq) -> {
      convs.add(conv);
      seqs.add(seq);
    });
    return query.bind("user", userId).bind("device", deviceId).bind("after", after)
        .bind("scan", scan()).bind("limit", pageSize)
        .bindArray("convs", String.class, convs).bindArray("seqs", Long.class, seqs);
  }

  // A full page stops after its last row (more may follow among what it read); a page that read
  // as many memberships as it may stops after the last it read; anything else read them all.
  private record Progress(int scanned, String scannedLast, int answered, String answeredLast) {
    Optional<String> next(int pageSize, int scan) {
      if (answered >= pageSize) {
        return Optional.of(answeredLast);
      }
      return scanned >= scan ? Optional.of(scannedLast) : Optional.empty();
    }
  }
}
