package io.seqsync.projector;

import io.seqsync.config.KafkaConnection;
import io.seqsync.events.ConvId;
import io.seqsync.events.model.CursorAdvanced;
import io.seqsync.events.model.DraftUpdated;
import io.seqsync.events.model.Event;
import io.seqsync.events.model.GroupRolesChanged;
import io.seqsync.events.model.GroupSettingsChanged;
import io.seqsync.events.model.MembershipChanged;
import io.seqsync.events.model.Message;
import io.seqsync.events.model.MessageAppended;
import io.seqsync.events.model.ReadAdvanced;
import io.seqsync.events.model.MessageEdited;
import io.seqsync.events.model.ReactionChanged;
import io.seqsync.events.model.RecallApplied;
import io.seqsync.redis.ConversationIndex;
import io.seqsync.redis.RedisHealth;
import io.seqsync.store.ConversationQueries;
import io.seqsync.store.StoredMessage;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import io.seqsync.store.shard.ShardMap;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Keeps the Redis conversation index (R20) in step with PostgreSQL: told about each batch after
 * its commit, so nothing is listed or counted before it is fetchable (R1). What an event does not
 * carry (a group's members, the sender and type of a recalled message) is read from the committed
 * rows. The index only merges forward, so a replayed batch changes nothing. A message costs O(1)
 * Redis writes whatever the group's size: members find their groups through their group set.
 *
 * <p>The index is a projection with its own watermark: after each batch's merges, in the same
 * pipeline, the next offset of every partition the batch covered ({@link ConversationIndex#indexed}).
 * Whatever the index missed (batches told while Redis was down, a Redis restarted from an older
 * append-only file, batches still queued when the process died) shows as a watermark below the
 * offsets PostgreSQL stored, and is replayed from the event log ({@link #reconcile}): at start, when
 * partitions are assigned, when Redis answers again, and after a failed batch (which leaves the
 * watermarks where they were). Until then readers are told the index is behind and read
 * PostgreSQL. A gap of more than {@value #REPLAY_LIMIT} events, or a partition without a
 * watermark, distrusts every built key instead (each is rebuilt from PostgreSQL on its first read).
 * So does a restarted master of a Redis Cluster (a restart, or a replica promoted): the watermark
 * lives on one master and the merges on all of them, so a master that lost writes did not lose the
 * watermark with them. Runs on the listeners' thread only, but for the flags
 * Redis's health sets.
 */
public final class ConversationIndexer implements CommitListener {
  static final long REPLAY_LIMIT = 100_000;
  private static final Logger log = LoggerFactory.getLogger(ConversationIndexer.class);

  private final ShardMap shards;
  private final ConversationIndex index;
  private final RedisHealth health;
  private final KafkaConnection kafka;
  private final String topic;
  private final Supplier<Set<Integer>> assignedPartitions;
  private volatile boolean reconcileNeeded = true;
  private volatile boolean distrustNeeded;
  private Set<Integer> reconciled = Set.of();

  /**
   * An indexer of the events {@code topic} at {@code kafka}, for the partitions
   * {@code assignedPartitions} names (the projector's), replaying what the index missed.
   */
  public ConversationIndexer(Jdbi jdbi, ConversationIndex index, RedisHealth health, KafkaConnection kafka,
      String topic, Supplier<Set<Integer>> assignedPartitions) {
    this(ShardMap.single(jdbi), index, health, kafka, topic, assignedPartitions);
  }

  /** As above, reading each conversation's rows and each partition's stored offset from its shard. */
  public ConversationIndexer(ShardMap shards, ConversationIndex index, RedisHealth health, KafkaConnection kafka,
      String topic, Supplier<Set<Integer>> assignedPartitions) {
    this.shards = shards;
    this.index = index;
    this.health = health;
    this.kafka = kafka;
    this.topic = topic;
    this.assignedPartitions = assignedPartitions;
    health.indexBehind(true);
    health.addListener(restarted -> {
      distrustNeeded |= restarted && index.cluster();
      needReconcile();
    });
  }

  @Override
  public void committed(CommittedBatch committed) {
    reconcileIfNeeded();
    if (!health.available()) {
      needReconcile();
      return;
    }
    try (ConversationIndex.Batch batch = index.batch()) {
      for (Event event : committed.events()) {
        apply(batch, event);
      }
      if (!reconcileNeeded) {
        committed.nextOffsets().forEach((partition, next) -> batch.indexed(topic, partition, next));
      }
    } catch (JedisException e) {
      health.failed(e);
      needReconcile();
    }
  }

  @Override
  public void idle() {
    reconcileIfNeeded();
  }

  private void needReconcile() {
    reconcileNeeded = true;
    health.indexBehind(true);
  }

  private void reconcileIfNeeded() {
    Set<Integer> assigned = assignedPartitions.get();
    if ((reconcileNeeded || !reconciled.containsAll(assigned)) && health.available()) {
      try {
        reconcile(assigned);
      } catch (JedisException e) {
        health.failed(e);
        needReconcile();
      } catch (RuntimeException e) {
        log.warn("index: could not catch up with what PostgreSQL holds, trying again: {}", e.toString());
        needReconcile();
      }
    }
  }

  /** Brings the index of the assigned partitions up to the offsets PostgreSQL stored. */
  private void reconcile(Set<Integer> assigned) {
    reconcileNeeded = false;
    boolean distrust = distrustNeeded;
    Map<Integer, Long> stored = shards.storedOffsets(topic);
    Map<Integer, Long> marks = index.indexed(topic);
    Map<Integer, Long> gaps = new TreeMap<>();
    boolean unknown = false;
    for (int partition : assigned) {
      Long to = stored.get(partition);
      Long from = marks.get(partition);
      if (to != null && from == null) {
        unknown = true;
      } else if (to != null && from < to) {
        gaps.put(partition, from);
      }
    }
    long missed = gaps.entrySet().stream().mapToLong(gap -> stored.get(gap.getKey()) - gap.getValue()).sum();
    if (distrust || unknown || missed > REPLAY_LIMIT) {
      long forgotten = index.forgetBuilt();
      distrustNeeded = false; // only once done: a failed catch-up distrusts again at the next
      log.info("index: {}; distrusted {} built keys, each rebuilt from PostgreSQL on its first read",
          distrust ? "a master of the Redis Cluster restarted or was replaced"
              : unknown ? "a partition without a watermark" : missed + " offsets behind PostgreSQL", forgotten);
    } else {
      for (Map.Entry<Integer, Long> gap : gaps.entrySet()) {
        long replayed = EventRange.read(kafka, topic, gap.getKey(), gap.getValue(), stored.get(gap.getKey()),
            this::applyAll);
        log.info("index: replayed {} events of partition {} it had missed (offsets {} to {})", replayed, gap.getKey(),
            gap.getValue(), stored.get(gap.getKey()));
      }
    }
    try (ConversationIndex.Batch batch = index.batch()) {
      assigned.stream().filter(stored::containsKey).forEach(partition -> batch.indexed(topic, partition, stored.get(partition)));
    }
    reconciled = Set.copyOf(assigned);
    if (!reconcileNeeded) {
      health.indexBehind(false);
    }
  }

  private void applyAll(List<Event> events) {
    try (ConversationIndex.Batch batch = index.batch()) {
      events.forEach(event -> apply(batch, event));
    }
  }

  private void apply(ConversationIndex.Batch batch, Event event) {
    String convId = event.getConvId();
    Object payload = event.getPayload();
    if (payload instanceof MessageAppended appended) {
      Message message = appended.getMessage();
      appendedMessage(batch, StoredMessage.of(message), true);
      message.getMentions().stream().filter(userId -> userId != message.getSenderId())
          .forEach(userId -> batch.mentioned(userId, convId, message.getSeq(), true));
    } else if (payload instanceof RecallApplied recall) {
      appendedMessage(batch, StoredMessage.of(recall.getNotice()), false);
      recalledSender(convId, recall.getRecalledSeq())
          .ifPresent(sender -> batch.recall(convId, recall.getRecalledSeq(), sender));
      recalledMentions(convId, recall.getRecalledSeq())
          .forEach(userId -> batch.mentioned(userId, convId, recall.getRecalledSeq(), false));
    } else if (payload instanceof MembershipChanged change) {
      appendedMessage(batch, StoredMessage.of(change.getNotice()), false);
      if (change.getGroupName() != null) {
        batch.named(convId, change.getGroupName());
      }
      // A new member's history starts at this notice: nothing before it counts as unread.
      change.getAdded().forEach(userId -> batch.joined(userId, convId).read(userId, convId, change.getNotice().getSeq()));
      change.getRemoved().forEach(userId -> batch.unlisted(userId, convId));
    } else if (payload instanceof GroupRolesChanged roles) {
      appendedMessage(batch, StoredMessage.of(roles.getNotice()), false);
    } else if (payload instanceof GroupSettingsChanged settings) {
      appendedMessage(batch, StoredMessage.of(settings.getNotice()), false);
    } else if (payload instanceof MessageEdited edit) {
      appendedMessage(batch, StoredMessage.of(edit.getNotice()), false);
    } else if (payload instanceof ReactionChanged reaction) {
      appendedMessage(batch, StoredMessage.of(reaction.getNotice()), false);
    } else if (payload instanceof ReadAdvanced read) {
      batch.read(read.getUserId(), convId, read.getSeq());
    } else if (payload instanceof CursorAdvanced cursor) {
      batch.cursor(cursor.getUserId(), cursor.getDeviceId(), convId, cursor.getSeq());
    } else if (payload instanceof DraftUpdated draft) {
      batch.draft(draft.getUserId(), convId, draft.getText(), event.getTime());
    }
  }

  // A group moves up in its members' lists through one write; a direct conversation has two users
  // to list it. A sent message is read by its sender; a notice is not.
  private static void appendedMessage(ConversationIndex.Batch batch, StoredMessage message, boolean readBySender) {
    batch.message(message, readBySender);
    ConvId convId = ConvId.parse(message.convId()).orElseThrow();
    if (convId.kind() == ConvId.Kind.GROUP) {
      batch.groupActive(message.convId(), message.createTime());
    } else {
      convId.directUsers().forEach(userId -> batch.listed(userId, message.convId(), message.createTime()));
    }
  }

  // Message actions: who the recalled message mentioned (in either tier).
  private List<Long> recalledMentions(String convId, long seq) {
    return shards.of(convId).withHandle(handle -> handle.createQuery("select unnest(mentions) from all_messages"
            + " where conv_id = :conv and seq = :seq")
        .bind("conv", convId).bind("seq", seq).mapTo(Long.class).list());
  }

  // Only a countable message counts as recalled: the recalled set must stay within the countable one.
  // In either tier: the archive job may have moved it since the recall was accepted.
  private Optional<Long> recalledSender(String convId, long seq) {
    return shards.of(convId).withHandle(handle -> handle.createQuery("select sender_id from all_messages"
            + " where conv_id = :conv and seq = :seq and type in (<types>)")
        .bind("conv", convId).bind("seq", seq).bindList("types", ConversationQueries.COUNTABLE_TYPES)
        .mapTo(Long.class).findOne());
  }
}
