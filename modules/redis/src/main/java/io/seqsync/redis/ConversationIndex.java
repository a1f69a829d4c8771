package io.seqsync.redis;

import io.seqsync.store.ConversationQueries;
import io.seqsync.store.StoredMessage;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Predicate;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.ScanIteration;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.ZAddParams;
import redis.clients.jedis.resps.ScanResult;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * The Redis side of the conversation list and unread counts (R20); the layout is in
 * docs/design.md. Every write is a merge that only moves forward (add a seq, keep the greatest
 * position, keep the newest draft), so the projector's updates and a rebuild from PostgreSQL can
 * run in any order and still agree. A key is only trusted once a rebuild has marked it
 * {@code built}: a missing key means "rebuild from PostgreSQL", never zero. One Redis or a Redis
 * Cluster alike ({@link RedisClients}): every script's keys share one hash slot ({@link IndexKeys}),
 * and what scans the keys scans every node. Thread-safe.
 */
public final class ConversationIndex {
  static final String BUILT = "built";
  static final String LATEST_SEQ = "latestSeq";
  static final String UPDATED_AT = "updatedAt";
  static final String LAST_MESSAGE = "last";
  static final String NAME = "name";
  /** Conversation hash field: countable seqs at or below it are no longer in the sets. */
  static final String FLOOR = "countableFloor";
  /** Countable seqs kept per conversation: enough for any unread count a person reads exactly. */
  public static final int KEPT_COUNTABLE = 1_000;

  // The merges, as Lua scripts (resources under redis/), so that a message's merges run as one
  // script: an EVAL costs Redis 7-8 µs before its first command (commandstats, Redis 6.2), and a
  // message took three.
  private static final RedisScript MAX_FIELD = RedisScript.load("lib/max_field.lua", "max_field.lua");
  private static final RedisScript COUNTABLE = RedisScript.load("lib/countable.lua", "countable.lua");
  private static final RedisScript MESSAGES =
      RedisScript.load("lib/last.lua", "lib/countable.lua", "lib/max_field.lua", "messages.lua");
  /**
   * Keys per run of {@link #MESSAGES} (a message takes four, its sender's read position one more):
   * a script holds Redis (its master, in a cluster) for its whole run.
   */
  static final int MESSAGES_PER_SCRIPT = 200;
  private static final int KEYS_PER_SCRIPT = 5 * MESSAGES_PER_SCRIPT;
  private static final RedisScript DRAFT = RedisScript.load("draft.lua");
  private static final RedisScript RECALLED = RedisScript.load("recalled.lua");
  private static final RedisScript RAISE_FLOOR = RedisScript.load("raise_floor.lua");
  private static final RedisScript UNREAD = RedisScript.load("unread.lua");
  private static final RedisScript EXPIRED_LAST = RedisScript.load("expired_last.lua");
  private static final RedisScript EXPIRED_DRAFT = RedisScript.load("expired_draft.lua");

  private final UnifiedJedis redis;
  private final boolean cluster;
  private final int keptCountable;

  public ConversationIndex(UnifiedJedis redis) {
    this(redis, KEPT_COUNTABLE);
  }

  /** An index that keeps {@code keptCountable} countable seqs per conversation (tests use few). */
  public ConversationIndex(UnifiedJedis redis, int keptCountable) {
    this.redis = redis;
    this.cluster = RedisClients.isCluster(redis);
    this.keptCountable = keptCountable;
  }

  /** Whether this index lives on a Redis Cluster (its merges on several masters, its watermark on one). */
  public boolean cluster() {
    return cluster;
  }

  /** The edits of one batch, sent in one pipeline. */
  public Batch batch() {
    return new Batch(this);
  }

  int keptCountable() {
    return keptCountable;
  }

  /**
   * The user's unread count in the conversation above {@code readSeq} (other users' countable
   * messages not recalled), or empty when the read position is below what Redis keeps.
   */
  OptionalLong unread(String convId, long userId, long readSeq) {
    long unread = (Long) UNREAD.run(redis, List.of(IndexKeys.conversation(convId), IndexKeys.countable(convId, null),
        IndexKeys.recalled(convId, null), IndexKeys.countable(convId, userId), IndexKeys.recalled(convId, userId)),
        List.of(Long.toString(readSeq)));
    return unread < 0 ? OptionalLong.empty() : OptionalLong.of(unread);
  }

  /** Message actions: how often the user is mentioned in the conversation above {@code readSeq}. */
  long mentions(long userId, String convId, long readSeq) {
    return redis.zcount(IndexKeys.mentions(userId, convId), "(" + readSeq, "+inf");
  }

  /**
   * Deletes every key of the index (those under {@value IndexKeys#PREFIX}), so that each is rebuilt
   * from PostgreSQL on its first read, as after a Redis restart without persistence; returns how
   * many. Not atomic: meant for a replay, with no projector writing.
   */
  public long forgetAll() {
    return unlinkScanned(key -> true);
  }

  /**
   * Erasure: deletes the keys of the user ({@code {userId}} in the name: drafts, read positions,
   * cursors, list) and of every conversation of {@code convIds} (last-message previews), so that
   * each is rebuilt from PostgreSQL's purged rows on its first read; returns how many. Safe while
   * the projector writes: a key it writes meanwhile is not marked built, so a read rebuilds it too.
   */
  public long forgetErased(long userId, Collection<String> convIds) {
    Set<String> tags = new HashSet<>();
    tags.add("{" + userId + "}");
    convIds.forEach(convId -> tags.add("{" + convId + "}"));
    return unlinkScanned(key -> {
      int open = key.indexOf('{');
      int close = key.indexOf('}', open + 1);
      return open >= 0 && close > open && tags.contains(key.substring(open, close + 1));
    });
  }

  // SCAN on every node (a cluster's masters and replicas: the deletes go to the masters by key, and
  // a key seen twice is deleted once), UNLINK of each key one by one, as keys of several slots
  // cannot go in one command on a cluster.
  private long unlinkScanned(Predicate<String> which) {
    long deleted = 0;
    ScanIteration scan = redis.scanIteration(1_000, IndexKeys.PREFIX + "*");
    while (!scan.isIterationCompleted()) {
      List<String> keys = scan.nextBatch().getResult().stream().filter(which).toList();
      if (!keys.isEmpty()) {
        try (AbstractPipeline pipeline = redis.pipelined()) {
          List<Response<Long>> unlinked = keys.stream().map(pipeline::unlink).toList();
          pipeline.sync();
          deleted += unlinked.stream().mapToLong(Response::get).sum();
        }
      }
    }
    return deleted;
  }

  /** Per partition of {@code topic}, the next offset the index has applied (absent: none known). */
  public Map<Integer, Long> indexed(String topic) {
    Map<Integer, Long> offsets = new HashMap<>();
    redis.hgetAll(IndexKeys.watermark(topic))
        .forEach((partition, next) -> offsets.put(Integer.parseInt(partition), Long.parseLong(next)));
    return offsets;
  }

  /**
   * Distrusts every key a rebuild marked built, so that each is rebuilt from PostgreSQL (and merged
   * with what it holds) on its first read: for an index that lost writes it cannot name. Keeps
   * everything else; safe while the projector writes and readers read. Scans every node of a
   * cluster. Returns how many were marked.
   */
  public long forgetBuilt() {
    long forgotten = 0;
    ScanIteration scan = redis.scanIteration(1_000, IndexKeys.PREFIX + "*", "hash");
    while (!scan.isIterationCompleted()) {
      ScanResult<String> page = scan.nextBatch();
      if (!page.getResult().isEmpty()) {
        try (AbstractPipeline pipeline = redis.pipelined()) {
          List<Response<Long>> removed = page.getResult().stream().map(key -> pipeline.hdel(key, BUILT)).toList();
          pipeline.sync();
          forgotten += removed.stream().mapToLong(Response::get).sum();
        }
      }
    }
    return forgotten;
  }

  /** Marks a rebuilt key as trusted; call only after its rebuild's merges were written. */
  void markBuilt(String key) {
    redis.hset(key, BUILT, "1");
  }

  /**
   * A pipeline of merges; {@link #close()} sends them. A batch's messages go as few runs of
   * {@link #MESSAGES} as fit {@link #KEYS_PER_SCRIPT} keys: one per run on one Redis, one per hash
   * slot and run on a cluster (a script's keys must share a slot there). Not thread-safe.
   */
  public static final class Batch implements AutoCloseable {
    private final UnifiedJedis redis;
    private final boolean cluster;
    private final AbstractPipeline pipeline;
    private final String kept;
    private final List<RedisScript.Queued> scripts = new ArrayList<>();
    private final Map<Integer, MessagesRun> messageRuns = new LinkedHashMap<>();
    private final List<List<String>> watermarks = new ArrayList<>();

    /** The keys and arguments of one run of {@link #MESSAGES}: see redis/messages.lua. */
    private record MessagesRun(List<String> keys, List<String> args) {}

    private Batch(ConversationIndex index) {
      this.redis = index.redis;
      this.cluster = index.cluster;
      this.pipeline = redis.pipelined();
      this.kept = Integer.toString(index.keptCountable);
    }

    private void script(RedisScript script, List<String> keys, List<String> args) {
      scripts.add(script.queue(pipeline, keys, args));
    }

    /**
     * A message was stored: the conversation's latest seq, last message and, when countable, its
     * seq; with {@code readBySender}, also the sender's read position (a sender has read what they
     * sent). Queued with the batch's other messages, sent when the batch closes.
     */
    public Batch message(StoredMessage message, boolean readBySender) {
      String convId = message.convId();
      boolean countable = ConversationQueries.COUNTABLE_TYPES.contains(message.type());
      String seq = Long.toString(message.seq());
      addToRun(List.of(IndexKeys.conversation(convId), IndexKeys.countable(convId, null),
          IndexKeys.countable(convId, message.senderId()), IndexKeys.recalled(convId, null)),
          List.of("m", seq, Long.toString(message.createTime()), RedisMessageCodec.encode(message), countable ? "1" : "0"));
      if (readBySender) {
        addToRun(List.of(IndexKeys.user(message.senderId())), List.of("r", IndexKeys.readField(convId), seq));
      }
      return this;
    }

    // Into the run of the keys' slot (one run for everything on one Redis); a full run is queued.
    private void addToRun(List<String> keys, List<String> args) {
      int slot = cluster ? JedisClusterCRC16.getSlot(keys.get(0)) : 0;
      MessagesRun run = messageRuns.computeIfAbsent(slot, any -> new MessagesRun(new ArrayList<>(), new ArrayList<>(List.of(kept))));
      run.keys().addAll(keys);
      run.args().addAll(args);
      if (run.keys().size() >= KEYS_PER_SCRIPT) {
        script(MESSAGES, run.keys(), run.args());
        messageRuns.remove(slot);
      }
    }

    /** A countable message (recalled or not): it counts for everyone but its sender until recalled. */
    Batch countable(String convId, long seq, long senderId, boolean recalled) {
      script(COUNTABLE, List.of(IndexKeys.conversation(convId), IndexKeys.countable(convId, null),
          IndexKeys.countable(convId, senderId), IndexKeys.recalled(convId, null)), List.of(Long.toString(seq), kept));
      return recalled ? recall(convId, seq, senderId) : this;
    }

    /** A countable message was recalled: it counts no more. */
    public Batch recall(String convId, long seq, long senderId) {
      script(RECALLED, List.of(IndexKeys.conversation(convId), IndexKeys.recalled(convId, null),
          IndexKeys.recalled(convId, senderId)), List.of(Long.toString(seq)));
      return this;
    }

    /** Countable seqs at or below {@code floor} are not kept (a rebuild loaded only the latest). */
    Batch raiseFloor(String convId, long floor) {
      script(RAISE_FLOOR, List.of(IndexKeys.conversation(convId), IndexKeys.countable(convId, null),
          IndexKeys.recalled(convId, null)), List.of(Long.toString(floor)));
      return this;
    }

    /**
     * The index has applied {@code topic}'s partition up to {@code nextOffset} once this batch is
     * sent (a watermark only moves forward); written after every merge of the batch was answered.
     */
    public Batch indexed(String topic, int partition, long nextOffset) {
      watermarks.add(List.of(IndexKeys.watermark(topic), Integer.toString(partition), Long.toString(nextOffset)));
      return this;
    }

    /** Message actions: the user is mentioned at {@code seq} (or, {@code on} false, no more: the message was recalled). */
    public Batch mentioned(long userId, String convId, long seq, boolean on) {
      if (on) {
        pipeline.zadd(IndexKeys.mentions(userId, convId), seq, Long.toString(seq));
      } else {
        pipeline.zrem(IndexKeys.mentions(userId, convId), Long.toString(seq));
      }
      return this;
    }

    /** The direct conversation is in the user's list, ordered by its last activity. */
    public Batch listed(long userId, String convId, long lastActivity) {
      pipeline.zadd(IndexKeys.userConversations(userId), lastActivity, convId, ZAddParams.zAddParams().gt());
      return this;
    }

    /** The group was active at {@code lastActivity}: it moves up in every member's list at once. */
    public Batch groupActive(String convId, long lastActivity) {
      pipeline.zadd(IndexKeys.GROUP_ACTIVITY, lastActivity, convId, ZAddParams.zAddParams().gt());
      return this;
    }

    /** The group's name. */
    public Batch named(String convId, String name) {
      pipeline.hset(IndexKeys.conversation(convId), NAME, name);
      return this;
    }

    /** The user joined the group: it is in their list. */
    public Batch joined(long userId, String convId) {
      pipeline.sadd(IndexKeys.userGroups(userId), convId);
      return this;
    }

    /** The user left the conversation. */
    public Batch unlisted(long userId, String convId) {
      pipeline.zrem(IndexKeys.userConversations(userId), convId);
      pipeline.srem(IndexKeys.userGroups(userId), convId);
      return this;
    }

    public Batch read(long userId, String convId, long seq) {
      script(MAX_FIELD, List.of(IndexKeys.user(userId)), List.of(IndexKeys.readField(convId), Long.toString(seq)));
      // Mentions read are counted no more: the count is above the read position, this keeps the set small.
      pipeline.zremrangeByScore(IndexKeys.mentions(userId, convId), "-inf", Long.toString(seq));
      return this;
    }

    public Batch cursor(long userId, String deviceId, String convId, long seq) {
      script(MAX_FIELD, List.of(IndexKeys.cursors(userId, deviceId)), List.of(convId, Long.toString(seq)));
      return this;
    }

    public Batch draft(long userId, String convId, String text, long updatedAt) {
      script(DRAFT, List.of(IndexKeys.user(userId)), List.of(IndexKeys.draftField(convId), Long.toString(updatedAt), text));
      return this;
    }

    /**
     * Retention blanked the conversation's messages up to {@code seq}: its last message, when among
     * them, is forgotten and rebuilt from PostgreSQL on its next read.
     */
    public Batch expiredUpTo(String convId, long seq) {
      script(EXPIRED_LAST, List.of(IndexKeys.conversation(convId)), List.of(Long.toString(seq)));
      return this;
    }

    /** Retention deleted the user's draft of the conversation updated before {@code cutoff}: unless newer, it goes. */
    public Batch draftExpired(long userId, String convId, long cutoff) {
      script(EXPIRED_DRAFT, List.of(IndexKeys.user(userId)), List.of(IndexKeys.draftField(convId), Long.toString(cutoff)));
      return this;
    }

    /**
     * Sends the merges; then those whose script Redis did not have (NOSCRIPT: restarted, flushed)
     * again with the script's text; then the watermarks. Merges commute, so their order against the
     * rest does not matter. A watermark is sent only once every merge was answered: on a cluster the
     * merges go to several masters and a pipeline keeps its order only on each connection, so a
     * watermark sent with them could land while a merge on another master failed.
     */
    @Override
    public void close() {
      messageRuns.values().forEach(run -> script(MESSAGES, run.keys(), run.args()));
      messageRuns.clear();
      pipeline.close();
      if (scripts.stream().anyMatch(RedisScript.Queued::missing)) {
        try (AbstractPipeline again = redis.pipelined()) {
          scripts.forEach(queued -> queued.runIfMissing(again));
        }
      }
      if (!watermarks.isEmpty()) {
        // With the text (EVAL): once a batch, and never a NOSCRIPT to mend.
        try (AbstractPipeline marks = redis.pipelined()) {
          watermarks.forEach(mark -> MAX_FIELD.queueWithText(marks, List.of(mark.get(0)), mark.subList(1, 3)));
        }
      }
    }
  }
}
