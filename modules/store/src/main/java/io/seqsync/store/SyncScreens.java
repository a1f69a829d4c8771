package io.seqsync.store;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import io.seqsync.store.shard.ShardMap;
import org.jdbi.v3.core.Jdbi;

/**
 * The first screens a handshake carries (issue 40, as Matrix's sync timeline and Telegram's
 * getDifference): for each conversation asked, the newest {@link #FIRST_SCREEN} messages above the
 * device's cursor, in one statement for all of them, and whether older unseen ones remain below
 * them. Bounded by the caller (how many conversations) and here by the bytes of content: the
 * conversations past {@code maxBytes} get no screen and their messages stay for a fetch.
 * Thread-safe: holds only the (thread-safe) Jdbi.
 */
public final class SyncScreens {
  /** The seeds' first screen. */
  public static final int FIRST_SCREEN = 20;

  // For each (conv, after, until) in the caller's order: from above the cursor, the member's floor
  // (a group's history before they joined) and the hot floor (R22), the newest 21 up to the
  // watermark the handshake answered (the 21st only says that older ones remain). `fetched` counts a
  // conversation's rows before the byte budget cuts them, so that a screen cut short is left out
  // whole; `running` sums the content bytes in the answer's order, and rows past the budget are
  // neither sent nor held.
  static final String SCREENS = "select ord, fetched, archived_older, " + MessageQueries.messageColumns("s") + " from ("
      + " select r.ord, f.archived_older, count(m.seq) over (partition by r.ord) as fetched,"
      + " sum(coalesce(octet_length(m.content), 0)) over (order by r.ord, m.seq desc rows unbounded preceding) as running,"
      + " coalesce(octet_length(m.content), 0) as size, m.*"
      + " from unnest(cast(:convs as text[]), cast(:afters as bigint[]), cast(:untils as bigint[]))"
      + "  with ordinality as r(conv_id, after, until, ord)"
      + " cross join lateral (select greatest(r.after, coalesce((select greatest(0, joined_seq - 1)"
      + "  from conversation_members where conv_id = r.conv_id and user_id = :user), 0)) as from_seq,"
      + "  coalesce((select archived_seq from conversations where conv_id = r.conv_id), 0) as archived) b"
      + " cross join lateral (select greatest(b.from_seq, b.archived) as from_seq, b.archived > b.from_seq as archived_older) f"
      + " left join lateral (select * from messages where messages.conv_id = r.conv_id and messages.seq > f.from_seq"
      + "  and messages.seq <= r.until order by messages.seq desc limit " + (FIRST_SCREEN + 1) + ") m on true"
      + " ) s where s.running - s.size < :budget order by s.ord, s.seq";

  /** What a screen is asked from: the conversation, the cursor it starts above and the watermark it ends at. */
  public record Ask(String convId, long after, long until) {}

  /**
   * The newest messages above the cursor, ascending by seq, and whether unseen ones remain below
   * the first of them ({@code limited}: too many to carry, or archived).
   */
  public record Screen(List<StoredMessage> messages, boolean limited) {
    public Screen {
      messages = List.copyOf(messages);
    }
  }

  private final ShardMap shards;
  private final MessageActionsQueries actions;

  /** One database for every conversation. */
  public SyncScreens(Jdbi jdbi) {
    this(ShardMap.single(jdbi));
  }

  /** Each conversation's rows in its shard of {@code shards}. */
  public SyncScreens(ShardMap shards) {
    this.actions = new MessageActionsQueries(shards);
    this.shards = shards;
  }

  /**
   * The screens of {@code asks} for {@code userId}, by convId, in the asks' order, as long as their
   * content fits {@code maxBytes}; the first conversation that does not fit, and every one after
   * it, has none. A conversation with nothing above its cursor has an empty screen.
   */
  public Map<String, Screen> screens(long userId, List<Ask> asks, long maxBytes) {
    if (asks.isEmpty()) {
      return Map.of();
    }
    if (shards.size() == 1) {
      return screens(shards.home(), userId, asks, maxBytes);
    }
    // Each shard's asks in parallel, each within the whole budget; then the budget in the asks' order.
    Map<Jdbi, List<Ask>> groups = shards.byShard(asks, Ask::convId);
    Map<String, Screen> found = new HashMap<>();
    shards.fanOut(groups.keySet(), jdbi -> screens(jdbi, userId, groups.get(jdbi), maxBytes)).forEach(found::putAll);
    Map<String, Screen> screens = new LinkedHashMap<>();
    long bytes = 0;
    for (Ask ask : asks) {
      Screen screen = found.get(ask.convId());
      if (screen == null) {
        break;
      }
      bytes += screen.messages().stream().mapToLong(SyncScreens::contentBytes).sum();
      if (bytes > maxBytes) {
        break;
      }
      screens.put(ask.convId(), screen);
    }
    return screens;
  }

  private static long contentBytes(StoredMessage message) {
    return message.content() == null ? 0 : message.content().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
  }

  private Map<String, Screen> screens(Jdbi jdbi, long userId, List<Ask> asks, long maxBytes) {
    List<String> convs = new ArrayList<>(asks.size());
    List<Long> afters = new ArrayList<>(asks.size());
    List<Long> untils = new ArrayList<>(asks.size());
    for (Ask ask : asks) {
      convs.add(ask.convId());
      afters.add(ask.after());
      untils.add(ask.until());
    }
    Map<Integer, List<StoredMessage>> rows = new HashMap<>();
    Map<Integer, long[]> counts = new HashMap<>(); // ord -> {rows fetched, archived older (0/1)}
    jdbi.useHandle(handle -> handle.createQuery(SCREENS).bind("user", userId).bind("budget", maxBytes)
        .bindArray("convs", String.class, convs).bindArray("afters", Long.class, afters)
        .bindArray("untils", Long.class, untils)
        .map((rs, ctx) -> {
          int ord = rs.getInt(1);
          counts.putIfAbsent(ord, new long[] {rs.getLong(2), rs.getBoolean(3) ? 1 : 0});
          List<StoredMessage> held = rows.computeIfAbsent(ord, ignored -> new ArrayList<>());
          if (rs.getObject(4) != null) {
            held.add(MessageQueries.message(rs, 4));
          }
          return ord;
        }).list());
    Map<String, Screen> screens = new LinkedHashMap<>();
    for (int ord = 1; ord <= asks.size(); ord++) {
      long[] count = counts.get(ord);
      List<StoredMessage> held = rows.getOrDefault(ord, List.of());
      if (count == null || held.size() < count[0]) {
        break; // cut by the budget (the sums only grow): this one and the rest are fetched
      }
      boolean older = held.size() > FIRST_SCREEN;
      List<StoredMessage> screen = older ? held.subList(1, held.size()) : held;
      // Message actions: the quotes of replies and the reactions as this user sees them, as a page shows them.
      String convId = asks.get(ord - 1).convId();
      screens.put(convId, new Screen(actions.decorate(convId, screen, userId), older || count[1] == 1));
    }
    return screens;
  }
}
