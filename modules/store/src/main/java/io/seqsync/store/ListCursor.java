package io.seqsync.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.resps.Tuple;

/**
 * Where a page of the conversation list ends: the last entry's activity time and convId
 * ({@code "1700000000000:d:1:2"}). Redis orders equal scores by member, descending here, so the
 * next page is every entry below that pair; ties are paged through, never skipped. Immutable.
 */
public record ListCursor(long activity, String convId) {
  private static final int CHUNK = 100;

  static ListCursor of(Tuple tuple) {
    return new ListCursor((long) tuple.getScore(), tuple.getElement());
  }

  /** The cursor a client sent back, or empty when it is not one. */
  public static Optional<ListCursor> parse(String text) {
    int colon = text.indexOf(':');
    if (colon < 1 || colon == text.length() - 1) {
      return Optional.empty();
    }
    try {
      return Optional.of(new ListCursor(Long.parseLong(text.substring(0, colon)), text.substring(colon + 1)));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  @Override
  public String toString() {
    return activity + ":" + convId;
  }

  /** Up to {@code count} entries of the sorted set after {@code cursor} (null: from the top), highest first. */
  static List<Tuple> page(JedisPooled redis, String key, ListCursor cursor, int count) {
    double max = cursor == null ? Double.POSITIVE_INFINITY : cursor.activity;
    List<Tuple> page = new ArrayList<>(count);
    for (int offset = 0; page.size() < count; offset += CHUNK) {
      List<Tuple> chunk = redis.zrevrangeByScoreWithScores(key, max, Double.NEGATIVE_INFINITY, offset, CHUNK);
      for (Tuple tuple : chunk) {
        if (page.size() < count && (cursor == null || cursor.isAbove(tuple))) {
          page.add(tuple);
        }
      }
      if (chunk.size() < CHUNK) {
        break;
      }
    }
    return page;
  }

  // True for entries that come after this cursor: a lower score, or the same score and a lower member.
  boolean isAbove(Tuple tuple) {
    long score = (long) tuple.getScore();
    return score < activity || (score == activity && tuple.getElement().compareTo(convId) < 0);
  }
}
