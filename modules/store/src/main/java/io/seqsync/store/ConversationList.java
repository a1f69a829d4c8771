package io.seqsync.store;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.JedisPooled;
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
  /** One conversation of the list; name null but for groups; lastMessage null for a conversation without messages yet. */
  public record Entry(String convId, String name, long latestSeq, StoredMessage lastMessage, long readSeq, long unread,
      String draft, long updatedAt) {}

  /** A page, most recent first; next is the cursor of the following page, null after the last. */
  public record Page(List<Entry> conversations, String next) {}

  /** An entry and its place in the list (its last activity), as PostgreSQL answers it. */
  record Ranked(Entry entry, long activity) {}

  private final JedisPooled redis;
  private final ConversationIndexRebuild rebuild;
  private final ConversationQueries store;
  private final RedisHealth health;

  public ConversationList(JedisPooled redis, ConversationIndexRebuild rebuild, ConversationQueries store,
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
    List<Ranked> listed = store.list(userId, limit + 1, cursor);
    boolean more = listed.size() > limit;
    List<Ranked> shown = more ? listed.subList(0, limit) : listed;
    Ranked last = shown.isEmpty() ? null : shown.get(shown.size() - 1);
    return new Page(shown.stream().map(Ranked::entry).toList(),
        more ? new ListCursor(last.activity(), last.entry().convId()).toString() : null);
  }

  private Page fromIndex(long userId, int limit, ListCursor cursor) {
    if (redis.hget(ConversationIndex.user(userId), ConversationIndex.BUILT) == null) {
      rebuild.user(userId);
    }
    List<Tuple> listed = merge(ListCursor.page(redis, ConversationIndex.userConversations(userId), cursor, limit + 1),
        groups(userId, cursor), limit + 1);
    boolean more = listed.size() > limit;
    List<Tuple> shown = more ? listed.subList(0, limit) : listed;
    List<Entry> entries = new ArrayList<>(shown.size());
    for (Tuple tuple : shown) {
      entries.add(entry(userId, tuple.getElement()));
    }
    String next = more ? ListCursor.of(shown.get(shown.size() - 1)).toString() : null;
    return new Page(entries, next);
  }

  // The user's groups after the cursor, scored by their activity (read fan-out: one ZMSCORE).
  private List<Tuple> groups(long userId, ListCursor cursor) {
    List<String> groups = List.copyOf(redis.smembers(ConversationIndex.userGroups(userId)));
    if (groups.isEmpty()) {
      return List.of();
    }
    List<Double> activity = redis.zmscore(ConversationIndex.GROUP_ACTIVITY, groups.toArray(String[]::new));
    List<Tuple> scored = new ArrayList<>(groups.size());
    for (int i = 0; i < groups.size(); i++) {
      Tuple tuple = new Tuple(groups.get(i), activity.get(i) == null ? 0 : activity.get(i));
      if (cursor == null || cursor.isAbove(tuple)) {
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

  private Entry entry(long userId, String convId) {
    Map<String, String> conversation = redis.hgetAll(ConversationIndex.conversation(convId));
    if (!conversation.containsKey(ConversationIndex.BUILT)) {
      rebuild.conversation(convId);
      conversation = redis.hgetAll(ConversationIndex.conversation(convId));
    }
    List<String> user = redis.hmget(ConversationIndex.user(userId),
        ConversationIndex.readField(convId), ConversationIndex.draftField(convId));
    long readSeq = user.get(0) == null ? 0 : Long.parseLong(user.get(0));
    String draft = user.get(1) == null ? null : user.get(1).substring(user.get(1).indexOf('|') + 1);
    return new Entry(convId, conversation.get(ConversationIndex.NAME),
        number(conversation.get(ConversationIndex.LATEST_SEQ)),
        RedisMessageCodec.decode(conversation.get(ConversationIndex.LAST_MESSAGE)), readSeq,
        unread(convId, userId, readSeq), draft, number(conversation.get(ConversationIndex.UPDATED_AT)));
  }

  // From Redis, or from PostgreSQL for a read position below the countable seqs Redis keeps.
  private long unread(String convId, long userId, long readSeq) {
    return rebuild.index().unread(convId, userId, readSeq)
        .orElseGet(() -> rebuild.unreadFromStore(convId, userId, readSeq));
  }

  private static long number(String text) {
    return text == null ? 0 : Long.parseLong(text);
  }
}
