package io.seqsync.store;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.Response;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.params.ZAddParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * The Redis side of the conversation list and unread counts (R20); the layout is in
 * docs/design.md. Every write is a merge that only moves forward (add a seq, keep the greatest
 * position, keep the newest draft), so the projector's updates and a rebuild from PostgreSQL can
 * run in any order and still agree. A key is only trusted once a rebuild has marked it
 * {@code built}: a missing key means "rebuild from PostgreSQL", never zero. Thread-safe.
 */
public final class ConversationIndex {
  /** Every key of the index starts with this. */
  static final String PREFIX = "ss:";
  static final String BUILT = "built";
  static final String LATEST_SEQ = "latestSeq";
  static final String UPDATED_AT = "updatedAt";
  static final String LAST_MESSAGE = "last";
  static final String NAME = "name";
  /** Conversation hash field: countable seqs at or below it are no longer in the sets. */
  static final String FLOOR = "countableFloor";
  /** Countable seqs kept per conversation: enough for any unread count a person reads exactly. */
  public static final int KEPT_COUNTABLE = 1_000;

  // The merges, as Lua functions the scripts below are made of, so that a message's merges run as
  // one script: an EVAL costs Redis 7-8 µs before its first command (commandstats, Redis 6.2), and
  // a message took three.
  // HSET field value unless the stored number is as large already.
  private static final String MAX_FIELD_FUNCTION = "local function maxField(hash, field, value)\n"
      + "  local cur = redis.call('HGET', hash, field)\n"
      + "  if (not cur) or tonumber(cur) < tonumber(value) then redis.call('HSET', hash, field, value) end\n"
      + "end\n";
  // The last message and its time go with the highest seq seen.
  private static final String LAST_FUNCTION = "local function last(hash, seq, time, message)\n"
      + "  local cur = tonumber(redis.call('HGET', hash, '" + LATEST_SEQ + "') or '0')\n"
      + "  if cur < tonumber(seq) then redis.call('HSET', hash, '" + LATEST_SEQ + "', seq, '" + UPDATED_AT + "', time, '"
      + LAST_MESSAGE + "', message) end\n"
      + "end\n";
  // Adds a countable seq (all senders, and its sender's) unless it is at or below the floor; past
  // the kept number, drops the lowest from the set of all, raises the floor to the highest dropped
  // and trims the sender's and the recalled sets to it (other senders' sets are trimmed when they
  // next send: entries at or below the floor are never counted, since a read position below the
  // floor is answered from PostgreSQL).
  private static final String COUNTABLE_FUNCTION = "local function countable(hash, all, mine, recalled, seq, kept)\n"
      + "  local floor = tonumber(redis.call('HGET', hash, '" + FLOOR + "') or '0')\n"
      + "  if tonumber(seq) <= floor then return end\n"
      + "  redis.call('ZADD', all, seq, seq)\n"
      + "  redis.call('ZADD', mine, seq, seq)\n"
      + "  local excess = redis.call('ZCARD', all) - tonumber(kept)\n"
      + "  if excess > 0 then\n"
      + "    floor = tonumber(redis.call('ZRANGE', all, excess - 1, excess - 1)[1])\n"
      + "    redis.call('ZREMRANGEBYRANK', all, 0, excess - 1)\n"
      + "    redis.call('ZREMRANGEBYSCORE', recalled, '-inf', floor)\n"
      + "    redis.call('HSET', hash, '" + FLOOR + "', floor)\n"
      + "  end\n"
      + "  redis.call('ZREMRANGEBYSCORE', mine, '-inf', floor)\n"
      + "end\n";

  // KEYS: hash. ARGV: field, value.
  private static final RedisScript MAX_FIELD = new RedisScript(
      MAX_FIELD_FUNCTION + "maxField(KEYS[1], ARGV[1], ARGV[2])\nreturn 0");
  // KEYS: conversation hash, countable, countable:sender, recalled. ARGV: seq, kept.
  private static final RedisScript COUNTABLE = new RedisScript(COUNTABLE_FUNCTION
      + "countable(KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV[1], ARGV[2])\nreturn 0");
  // Stored messages, any number: for each, the last message; its seq when countable; the sender's
  // read position when read. One script for a batch's messages: each EVALSHA costs Redis its own
  // dispatch before the first command, and a batch held a hundred messages at 5,000 sends/s.
  // KEYS, five per message: conversation hash, countable, countable:sender, recalled, sender's hash.
  // ARGV: kept, then six per message: seq, createTime, message, countable (1/0), read (1/0), read field.
  private static final RedisScript MESSAGES = new RedisScript(LAST_FUNCTION + COUNTABLE_FUNCTION + MAX_FIELD_FUNCTION
      + "for i = 0, #KEYS / 5 - 1 do\n"
      + "  local k, a = i * 5, 1 + i * 6\n"
      + "  last(KEYS[k + 1], ARGV[a + 1], ARGV[a + 2], ARGV[a + 3])\n"
      + "  if ARGV[a + 4] == '1' then countable(KEYS[k + 1], KEYS[k + 2], KEYS[k + 3], KEYS[k + 4], ARGV[a + 1], ARGV[1]) end\n"
      + "  if ARGV[a + 5] == '1' then maxField(KEYS[k + 5], ARGV[a + 6], ARGV[a + 1]) end\n"
      + "end\n"
      + "return 0");
  /** Messages per run of {@link #MESSAGES}: a script holds Redis for its whole run. */
  static final int MESSAGES_PER_SCRIPT = 200;
  // A draft is stored as "updatedAt|text"; the newest one wins (a tie: the later write).
  private static final RedisScript DRAFT = new RedisScript(
      "local cur = redis.call('HGET', KEYS[1], ARGV[1])\n"
      + "if (not cur) or tonumber(string.match(cur, '^(%d+)|')) <= tonumber(ARGV[2]) then\n"
      + "  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. '|' .. ARGV[3]) end\n"
      + "return 0");
  // Marks a countable seq recalled unless it is at or below the floor (it counts no more anyway).
  // KEYS: conversation hash, recalled, recalled:sender. ARGV: seq.
  private static final RedisScript RECALLED = new RedisScript(
      "local floor = tonumber(redis.call('HGET', KEYS[1], '" + FLOOR + "') or '0')\n"
      + "if tonumber(ARGV[1]) <= floor then return 0 end\n"
      + "redis.call('ZADD', KEYS[2], ARGV[1], ARGV[1])\n"
      + "redis.call('ZADD', KEYS[3], ARGV[1], ARGV[1])\n"
      + "redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', floor)\n"
      + "return 0");
  // Raises the floor (a rebuild that loaded only the latest countable seqs) and drops what is below it.
  // KEYS: conversation hash, countable, recalled. ARGV: floor.
  private static final RedisScript RAISE_FLOOR = new RedisScript(
      "local floor = tonumber(redis.call('HGET', KEYS[1], '" + FLOOR + "') or '0')\n"
      + "if tonumber(ARGV[1]) <= floor then return 0 end\n"
      + "redis.call('HSET', KEYS[1], '" + FLOOR + "', ARGV[1])\n"
      + "redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[1])\n"
      + "redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', ARGV[1])\n"
      + "return 0");
  // Unread for a read position, atomically with the floor: -1 when the position is below it.
  // KEYS: conversation hash, countable, recalled, countable:user, recalled:user. ARGV: read seq.
  private static final RedisScript UNREAD = new RedisScript(
      "local floor = tonumber(redis.call('HGET', KEYS[1], '" + FLOOR + "') or '0')\n"
      + "if tonumber(ARGV[1]) < floor then return -1 end\n"
      + "local above = '(' .. ARGV[1]\n"
      + "return (redis.call('ZCOUNT', KEYS[2], above, '+inf') - redis.call('ZCOUNT', KEYS[3], above, '+inf'))\n"
      + "  - (redis.call('ZCOUNT', KEYS[4], above, '+inf') - redis.call('ZCOUNT', KEYS[5], above, '+inf'))");

  private final JedisPooled redis;
  private final int keptCountable;

  public ConversationIndex(JedisPooled redis) {
    this(redis, KEPT_COUNTABLE);
  }

  /** An index that keeps {@code keptCountable} countable seqs per conversation (tests use few). */
  public ConversationIndex(JedisPooled redis, int keptCountable) {
    this.redis = redis;
    this.keptCountable = keptCountable;
  }

  static String conversation(String convId) {
    return PREFIX + "conv:" + convId;
  }

  /** Countable messages (R20: text, image, file) of everyone, or of one sender; score = member = seq. */
  static String countableKey(String convId, Long senderId) {
    return PREFIX + "conv:" + convId + ":countable" + (senderId == null ? "" : ":" + senderId);
  }

  /** The countable messages that were recalled, of everyone or of one sender. */
  static String recalledKey(String convId, Long senderId) {
    return PREFIX + "conv:" + convId + ":recalled" + (senderId == null ? "" : ":" + senderId);
  }

  static String user(long userId) {
    return PREFIX + "user:" + userId;
  }

  /** The user's direct conversations, scored by last activity: written for both users on every message. */
  static String userConversations(long userId) {
    return PREFIX + "user:" + userId + ":convs";
  }

  /** The user's groups, a set: written only when the membership changes. */
  static String userGroups(long userId) {
    return PREFIX + "user:" + userId + ":groups";
  }

  /**
   * Every group scored by last activity: one write per group message, whatever the group's size;
   * the list reads the scores of the user's groups from here (read fan-out, docs/design.md).
   */
  static final String GROUP_ACTIVITY = PREFIX + "groups:activity";

  /**
   * How far the index has applied a topic's partitions: field partition, value the next offset.
   * Written after a batch's merges, in the same pipeline, so a Redis that lost writes (a restart
   * from an older append-only file, a failover) lost the watermark with them.
   */
  static String watermarkKey(String topic) {
    return PREFIX + "indexed:" + topic;
  }

  static String cursors(long userId, String deviceId) {
    return PREFIX + "cursors:" + userId + ":" + deviceId;
  }

  static String readField(String convId) {
    return "read:" + convId;
  }

  static String draftField(String convId) {
    return "draft:" + convId;
  }

  /** The edits of one batch, sent in one pipeline. */
  public Batch batch() {
    return new Batch(redis, keptCountable);
  }

  int keptCountable() {
    return keptCountable;
  }

  /**
   * The user's unread count in the conversation above {@code readSeq} (other users' countable
   * messages not recalled), or empty when the read position is below what Redis keeps.
   */
  OptionalLong unread(String convId, long userId, long readSeq) {
    long unread = (Long) UNREAD.run(redis, List.of(conversation(convId), countableKey(convId, null),
        recalledKey(convId, null), countableKey(convId, userId), recalledKey(convId, userId)),
        List.of(Long.toString(readSeq)));
    return unread < 0 ? OptionalLong.empty() : OptionalLong.of(unread);
  }

  /**
   * Deletes every key of the index (those under {@value #PREFIX}), so that each is rebuilt from
   * PostgreSQL on its first read, as after a Redis restart without persistence; returns how many.
   * Not atomic: meant for a replay, with no projector writing.
   */
  public long forgetAll() {
    long deleted = 0;
    ScanParams match = new ScanParams().match(PREFIX + "*").count(1_000);
    String cursor = ScanParams.SCAN_POINTER_START;
    do {
      ScanResult<String> page = redis.scan(cursor, match);
      if (!page.getResult().isEmpty()) {
        deleted += redis.unlink(page.getResult().toArray(String[]::new));
      }
      cursor = page.getCursor();
    } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
    return deleted;
  }

  /** Per partition of {@code topic}, the next offset the index has applied (absent: none known). */
  public Map<Integer, Long> indexed(String topic) {
    Map<Integer, Long> offsets = new HashMap<>();
    redis.hgetAll(watermarkKey(topic)).forEach((partition, next) -> offsets.put(Integer.parseInt(partition), Long.parseLong(next)));
    return offsets;
  }

  /**
   * Distrusts every key a rebuild marked built, so that each is rebuilt from PostgreSQL (and merged
   * with what it holds) on its first read: for an index that lost writes it cannot name. Keeps
   * everything else; safe while the projector writes and readers read. Returns how many were marked.
   */
  public long forgetBuilt() {
    long forgotten = 0;
    ScanParams match = new ScanParams().match(PREFIX + "*").count(1_000);
    String cursor = ScanParams.SCAN_POINTER_START;
    do {
      ScanResult<String> page = redis.scan(cursor, match, "hash");
      if (!page.getResult().isEmpty()) {
        try (AbstractPipeline pipeline = redis.pipelined()) {
          List<Response<Long>> removed = page.getResult().stream().map(key -> pipeline.hdel(key, BUILT)).toList();
          pipeline.sync();
          forgotten += removed.stream().mapToLong(Response::get).sum();
        }
      }
      cursor = page.getCursor();
    } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
    return forgotten;
  }

  /** Marks a rebuilt key as trusted; call only after its rebuild's merges were written. */
  void markBuilt(String key) {
    redis.hset(key, BUILT, "1");
  }

  /** A pipeline of merges; {@link #close()} sends them. Not thread-safe. */
  public static final class Batch implements AutoCloseable {
    private final JedisPooled redis;
    private final AbstractPipeline pipeline;
    private final String kept;
    private final List<RedisScript.Queued> scripts = new ArrayList<>();
    private final List<String> messageKeys = new ArrayList<>();
    private final List<String> messageArgs = new ArrayList<>();
    private final List<List<String>> watermarks = new ArrayList<>();

    private Batch(JedisPooled redis, int keptCountable) {
      this.redis = redis;
      this.pipeline = redis.pipelined();
      this.kept = Integer.toString(keptCountable);
    }

    private void script(RedisScript script, List<String> keys, List<String> args) {
      scripts.add(script.queue(pipeline, keys, args));
    }

    /**
     * A message was stored: the conversation's latest seq, last message and, when countable, its
     * seq; with {@code readBySender}, also the sender's read position (a sender has read what they
     * sent). Queued with the batch's other messages, one script run per {@code MESSAGES_PER_SCRIPT}
     * of them; sent when the batch closes.
     */
    public Batch message(StoredMessage message, boolean readBySender) {
      String convId = message.convId();
      boolean countable = ConversationQueries.COUNTABLE_TYPES.contains(message.type());
      messageKeys.addAll(List.of(conversation(convId), countableKey(convId, null),
          countableKey(convId, message.senderId()), recalledKey(convId, null), user(message.senderId())));
      messageArgs.addAll(List.of(Long.toString(message.seq()), Long.toString(message.createTime()),
          RedisMessageCodec.encode(message), countable ? "1" : "0", readBySender ? "1" : "0", readField(convId)));
      if (messageKeys.size() == 5 * MESSAGES_PER_SCRIPT) {
        queueMessages();
      }
      return this;
    }

    private void queueMessages() {
      if (messageKeys.isEmpty()) {
        return;
      }
      List<String> args = new ArrayList<>(1 + messageArgs.size());
      args.add(kept);
      args.addAll(messageArgs);
      script(MESSAGES, List.copyOf(messageKeys), args);
      messageKeys.clear();
      messageArgs.clear();
    }

    /** A countable message (recalled or not): it counts for everyone but its sender until recalled. */
    Batch countable(String convId, long seq, long senderId, boolean recalled) {
      script(COUNTABLE, List.of(conversation(convId), countableKey(convId, null), countableKey(convId, senderId),
          recalledKey(convId, null)), List.of(Long.toString(seq), kept));
      return recalled ? recall(convId, seq, senderId) : this;
    }

    /** A countable message was recalled: it counts no more. */
    public Batch recall(String convId, long seq, long senderId) {
      script(RECALLED, List.of(conversation(convId), recalledKey(convId, null), recalledKey(convId, senderId)),
          List.of(Long.toString(seq)));
      return this;
    }

    /** Countable seqs at or below {@code floor} are not kept (a rebuild loaded only the latest). */
    Batch raiseFloor(String convId, long floor) {
      script(RAISE_FLOOR, List.of(conversation(convId), countableKey(convId, null), recalledKey(convId, null)),
          List.of(Long.toString(floor)));
      return this;
    }

    /**
     * The index has applied {@code topic}'s partition up to {@code nextOffset} once this batch is
     * sent (a watermark only moves forward); written after every merge of the batch.
     */
    public Batch indexed(String topic, int partition, long nextOffset) {
      watermarks.add(List.of(watermarkKey(topic), Integer.toString(partition), Long.toString(nextOffset)));
      return this;
    }

    /** The direct conversation is in the user's list, ordered by its last activity. */
    public Batch listed(long userId, String convId, long lastActivity) {
      pipeline.zadd(userConversations(userId), lastActivity, convId, ZAddParams.zAddParams().gt());
      return this;
    }

    /** The group was active at {@code lastActivity}: it moves up in every member's list at once. */
    public Batch groupActive(String convId, long lastActivity) {
      pipeline.zadd(GROUP_ACTIVITY, lastActivity, convId, ZAddParams.zAddParams().gt());
      return this;
    }

    /** The group's name. */
    public Batch named(String convId, String name) {
      pipeline.hset(conversation(convId), NAME, name);
      return this;
    }

    /** The user joined the group: it is in their list. */
    public Batch joined(long userId, String convId) {
      pipeline.sadd(userGroups(userId), convId);
      return this;
    }

    /** The user left the conversation. */
    public Batch unlisted(long userId, String convId) {
      pipeline.zrem(userConversations(userId), convId);
      pipeline.srem(userGroups(userId), convId);
      return this;
    }

    public Batch read(long userId, String convId, long seq) {
      script(MAX_FIELD, List.of(user(userId)), List.of(readField(convId), Long.toString(seq)));
      return this;
    }

    public Batch cursor(long userId, String deviceId, String convId, long seq) {
      script(MAX_FIELD, List.of(cursors(userId, deviceId)), List.of(convId, Long.toString(seq)));
      return this;
    }

    public Batch draft(long userId, String convId, String text, long updatedAt) {
      script(DRAFT, List.of(user(userId)), List.of(draftField(convId), Long.toString(updatedAt), text));
      return this;
    }

    /**
     * Sends the merges, then the watermarks; those whose script Redis did not have (NOSCRIPT:
     * restarted, flushed) go again with the script's text, in the order they were queued. Merges
     * commute, so their order against the rest does not matter; a watermark comes after them all.
     */
    @Override
    public void close() {
      queueMessages();
      watermarks.forEach(mark -> script(MAX_FIELD, List.of(mark.get(0)), mark.subList(1, 3)));
      pipeline.close();
      if (scripts.stream().anyMatch(RedisScript.Queued::missing)) {
        try (AbstractPipeline again = redis.pipelined()) {
          scripts.forEach(queued -> queued.runIfMissing(again));
        }
      }
    }
  }
}
