package io.seqsync.redis;

import io.seqsync.store.ConversationQueries;
import io.seqsync.store.ListCursor;
import io.seqsync.store.ListEntry;
import io.seqsync.store.StoredMessage;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.resps.Tuple;

/**
 * The conversation list with unread counts (R20), served from Redis ({@link ConversationIndex}),
 * or from PostgreSQL while the index cannot be trusted ({@link RedisHealth#indexCurrent()}: Redis
 * does not answer, or the indexer is catching up with what it missed): slower, the same answer,
 * the same cursors.
 * Unread is computed, never counted up and down: other people's countable messages above the
 * user's read position that were not recalled, i.e. ZCOUNT(countable) − ZCOUNT(recalled) minus
 * the same for the user's own messages. Redis keeps the latest {@link ConversationIndex#KEPT_COUNTABLE}
 * countable seqs per conversation; a read position below them is counted in PostgreSQL. Whatever
 * is not marked built is rebuilt from PostgreSQL first. Thread-safe.
 */
public final class ConversationList {
  /** A page, most recent first; next is the cursor of the following page, null after the last. */
  public record Page(List<ListEntry> conversations, String next) {}

  /** Entries read from a sorted set at a time, while paging through ties. */
  private static final int CHUNK = 100;

  private final UnifiedJedis redis;
  private final ConversationIndexRebuild rebuild;
  private final ConversationQueries store;
  private final RedisHealth health;

  public ConversationList(UnifiedJedis redis, ConversationIndexRebuild rebuild, ConversationQueries store,
      RedisHealth health) {
    this.redis = redis;
    this.rebuild = rebuild;
    this.store = store;
    this.health = health;
  }

  /** The page of {@code limit} conversations after {@code cursor} (null: from the most recent). */
  public Page page(long userId, int limit, ListCursor cursor) {
    if (health.indexCurrent()) {
      try {
        return fromIndex(userId, limit, cursor);
      } catch (JedisException e) {
        health.failed(e);
      }
    }
    return fromStore(userId, limit, cursor);
  }

  private Page fromStore(long userId, int limit, ListCursor cursor) {
    List<ListEntry.Ranked> listed = store.list(userId, limit + 1, cursor);
    boolean more = listed.size() > limit;
    List<ListEntry.Ranked> shown = more ? listed.subList(0, limit) : listed;
    ListEntry.Ranked last = shown.isEmpty() ? null : shown.get(shown.size() - 1);
    return new Page(shown.stream().map(ListEntry.Ranked::entry).toList(),
        more ? new ListCursor(last.activity(), last.entry().convId()).toString() : null);
  }

  private Page fromIndex(long userId, int limit, ListCursor cursor) {
    if (redis.hget(IndexKeys.user(userId), ConversationIndex.BUILT) == null) {
      rebuild.user(userId);
    }
    List<Tuple> listed = merge(page(IndexKeys.userConversations(userId), cursor, limit + 1),
        groups(userId, cursor), limit + 1);
    boolean more = listed.size() > limit;
    List<Tuple> shown = more ? listed.subList(0, limit) : listed;
    List<ListEntry> entries = new ArrayList<>(shown.size());
    for (Tuple tuple : shown) {
      entries.add(entry(userId, tuple.getElement()));
    }
    String next = more ? cursorOf(shown.get(shown.size() - 1)).toString() : null;
    return new Page(entries, next);
  }

  // The user's groups after the cursor, scored by their activity (read fan-out: one ZMSCORE).
  private List<Tuple> groups(long userId, ListCursor cursor) {
    List<String> groups = List.copyOf(redis.smembers(IndexKeys.userGroups(userId)));
    if (groups.isEmpty()) {
      return List.of();
    }
    List<Double> activity = redis.zmscore(IndexKeys.GROUP_ACTIVITY, groups.toArray(String[]::new));
    List<Tuple> scored = new ArrayList<>(groups.size());
    for (int i = 0; i < groups.size(); i++) {
      Tuple tuple = new Tuple(groups.get(i), activity.get(i) == null ? 0 : activity.get(i));
      if (cursor == null || isAbove(cursor, tuple)) {
        scored.add(tuple);
      }
    }
    return scored;
  }

  // Most recent first, ties by convId descending: the order of the sorted sets and of ListCursor.
  private static List<Tuple> merge(List<Tuple> direct, List<Tuple> groups, int count) {
    List<Tuple> all = new ArrayList<>(direct.size() + groups.size());
    all.addAll(direct);
    all.addAll(groups);
    all.sort(Comparator.comparingDouble(Tuple::getScore).thenComparing(Tuple::getElement).reversed());
    return all.size() > count ? all.subList(0, count) : all;
  }

  /** The user's unread count in one conversation, from Redis. */
  public long unread(long userId, String convId) {
    return entry(userId, convId).unread();
  }

  private ListEntry entry(long userId, String convId) {
    Map<String, String> conversation = redis.hgetAll(IndexKeys.conversation(convId));
    if (!conversation.containsKey(ConversationIndex.BUILT)) {
      rebuild.conversation(convId);
      conversation = redis.hgetAll(IndexKeys.conversation(convId));
    }
    List<String> user = redis.hmget(IndexKeys.user(userId),
        IndexKeys.readField(convId), IndexKeys.draftField(convId));
    long readSeq = user.get(0) == null ? 0 : Long.parseLong(user.get(0));
    String draft = user.get(1) == null ? null : user.get(1).substring(user.get(1).indexOf('|') + 1);
    return new ListEntry(convId, conversation.get(ConversationIndex.NAME),
        number(conversation.get(ConversationIndex.LATEST_SEQ)),
        RedisMessageCodec.decode(conversation.get(ConversationIndex.LAST_MESSAGE)), readSeq,
        unread(convId, userId, readSeq), draft, number(conversation.get(ConversationIndex.UPDATED_AT)),
        rebuild.index().mentions(userId, convId, readSeq));
  }

  // From Redis, or from PostgreSQL for a read position below the countable seqs Redis keeps.
  private long unread(String convId, long userId, long readSeq) {
    return rebuild.index().unread(convId, userId, readSeq)
        .orElseGet(() -> rebuild.unreadFromStore(convId, userId, readSeq));
  }

  /** Up to {@code count} entries of the sorted set after {@code cursor} (null: from the top), highest first. */
  private List<Tuple> page(String key, ListCursor cursor, int count) {
    double max = cursor == null ? Double.POSITIVE_INFINITY : cursor.activity();
    List<Tuple> page = new ArrayList<>(count);
    for (int offset = 0; page.size() < count; offset += CHUNK) {
      List<Tuple> chunk = redis.zrevrangeByScoreWithScores(key, max, Double.NEGATIVE_INFINITY, offset, CHUNK);
      for (Tuple tuple : chunk) {
        if (page.size() < count && (cursor == null || isAbove(cursor, tuple))) {
          page.add(tuple);
        }
      }
      if (chunk.size() < CHUNK) {
        break;
      }
    }
    return page;
  }

  private static boolean isAbove(ListCursor cursor, Tuple tuple) {
    return cursor.isAbove((long) tuple.getScore(), tuple.getElement());
  }

  private static ListCursor cursorOf(Tuple tuple) {
    return new ListCursor((long) tuple.getScore(), tuple.getElement());
  }

  private static long number(String text) {
    return text == null ? 0 : Long.parseLong(text);
  }
}
