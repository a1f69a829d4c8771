package io.seqsync.projector.postgres;

import io.seqsync.events.ConvId;
import io.seqsync.events.model.Event;
import io.seqsync.events.model.Message;
import io.seqsync.events.model.MessageType;
import io.seqsync.store.StoredMessage;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.PreparedBatch;
import org.jdbi.v3.core.statement.SqlStatement;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies decoded events to the PostgreSQL projection, one batch at a time, inside the caller's
 * transaction: the caller commits the rows together with its consumer offsets
 * ({@link ProjectionOffsets}), so a batch is stored entirely or not at all. Every table is written
 * with one batched statement per batch (messages: one more for repeated seqs). Seq continuity
 * (R25) is checked against each conversation's latest_seq, locked once per batch; a repeated seq
 * never overwrites a row, a gap is recorded in seq_anomalies and the message stored anyway.
 * Thread-safe: keeps no state.
 */
public final class ProjectionWriter {
  private static final Logger log = LoggerFactory.getLogger(ProjectionWriter.class);
  private static final String UNIQUE_VIOLATION = "23505";
  // One statement over arrays rather than a JDBC batch of one insert per message: PostgreSQL then
  // plans and starts one statement per batch, not one per row (docs/design.md, "The projection (PostgreSQL, D4, R1, R7, R25)").
  private static final String INSERT_MESSAGES = "insert into messages"
      + " (conv_id, seq, msg_id, sender_id, sender_device, client_msg_id, type, content, create_time, attachment)"
      + " select * from unnest(:convIds, :seqs, :msgIds, :senderIds, :senderDevices, :clientMsgIds, :types,"
      + " :contents, :createTimes, :attachments)";

  /**
   * How {@link #apply} inserts a batch's new messages (those above their conversation's latest
   * seq; a repeated seq is always inserted guarded).
   */
  public enum NewMessages {
    /**
     * In one plain insert: no row can hold a seq above the locked latest_seq, so only a msgId the
     * sequencer reused conflicts, and then the insert fails with {@link MessageConflict} and the
     * caller's transaction must be rolled back and the batch applied again {@link #GUARDED}.
     * PostgreSQL's ON CONFLICT checks each row against every unique index before inserting it:
     * about half again the insert's cost (docs/design.md, "The projection (PostgreSQL, D4, R1, R7, R25)").
     */
    PLAIN,
    /** Each row only where no stored row conflicts with it; a new message that conflicts is logged and skipped. */
    GUARDED
  }

  /** A plain insert of new messages met a stored row: roll back, then apply the batch {@link NewMessages#GUARDED}. */
  public static final class MessageConflict extends RuntimeException {
    MessageConflict(Throwable cause) {
      super("a new message conflicts with a stored row: " + cause.getMessage(), cause);
    }
  }

  /**
   * Stores {@code events} through {@code handle}, which must be in a transaction the caller commits,
   * inserting the new messages as {@code newMessages} says.
   */
  public AppliedBatch apply(Handle handle, List<Event> events, NewMessages newMessages) {
    SortedSet<String> convIds = events.stream()
        .map(event -> ProjectionPlan.appendedMessage(event.getPayload()))
        .filter(Objects::nonNull)
        .map(Message::getConvId)
        .collect(Collectors.toCollection(TreeSet::new));
    ProjectionPlan plan = ProjectionPlan.of(events, lockConversations(handle, convIds));
    insertMessages(handle, plan, newMessages);
    markRecalled(handle, plan);
    MessageActionsWriter.write(handle, plan.actions, plan.recalls);
    changeMembers(handle, plan);
    updateConversations(handle, plan);
    changeBlocks(handle, plan);
    changeListSettings(handle, plan);
    recordGaps(handle, plan);
    upsertPositions(handle, plan);
    return new AppliedBatch(plan.outcomes, plan.anomalies);
  }

  // Locks the batch's conversations until commit, creating the missing ones: the latest_seq read
  // here stays true for the whole batch even if a second projector instance works on them. The
  // stored ones first, so that a batch of known conversations takes one statement (an insert of
  // nothing first took a round trip of its own, 0.4-0.6 ms a batch: docs/design.md, "The projection
  // (PostgreSQL, D4, R1, R7, R25)"), then the created ones; each in sorted order, so that two
  // instances lock in the same order.
  private static Map<String, Long> lockConversations(Handle handle, SortedSet<String> convIds) {
    if (convIds.isEmpty()) {
      return Map.of();
    }
    Map<String, Long> latestSeqs = new HashMap<>(lockStored(handle, convIds));
    if (latestSeqs.size() < convIds.size()) {
      SortedSet<String> missing = new TreeSet<>(convIds);
      missing.removeAll(latestSeqs.keySet());
      List<String> created = handle.createQuery("insert into conversations (conv_id, kind)"
              + " select id, case when id like 'd:%' then 'direct' else 'group' end from unnest(:ids) as id order by id"
              + " on conflict do nothing returning conv_id")
          .bindArray("ids", String.class, missing)
          .mapTo(String.class)
          .list();
      addDirectMembers(handle, created);
      // Those another instance created meanwhile are locked here; the created ones are new and ours.
      latestSeqs.putAll(lockStored(handle, missing));
    }
    return latestSeqs;
  }

  private static Map<String, Long> lockStored(Handle handle, SortedSet<String> convIds) {
    return handle.createQuery("select conv_id, latest_seq from conversations where conv_id = any(:ids)"
            + " order by conv_id for update")
        .bindArray("ids", String.class, convIds)
        .map((row, ctx) -> Map.entry(row.getString("conv_id"), row.getLong("latest_seq")))
        .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
  }

  // The two users of a direct conversation are its members from the start (joined_seq 0).
  private static void addDirectMembers(Handle handle, List<String> createdConvIds) {
    PreparedBatch members = handle.prepareBatch(
        "insert into conversation_members (conv_id, user_id, joined_seq) values (?, ?, 0) on conflict do nothing");
    for (String convId : createdConvIds) {
      ConvId.parse(convId).ifPresent(id -> id.directUsers().forEach(userId -> members.add(convId, userId)));
    }
    execute(members);
  }

  private static void insertMessages(Handle handle, ProjectionPlan plan, NewMessages newMessages) {
    List<Message> fresh = new ArrayList<>();
    List<ProjectionPlan.Append> guarded = new ArrayList<>();
    for (ProjectionPlan.Append append : plan.appends) {
      if (append.repeat() || newMessages == NewMessages.GUARDED) {
        guarded.add(append);
      } else {
        fresh.add(append.message());
      }
    }
    if (!fresh.isEmpty()) {
      try {
        bindRows(handle.createUpdate(INSERT_MESSAGES), fresh).execute();
      } catch (UnableToExecuteStatementException e) {
        if (e.getCause() instanceof SQLException cause && UNIQUE_VIOLATION.equals(cause.getSQLState())) {
          throw new MessageConflict(e);
        }
        throw e;
      }
    }
    if (guarded.isEmpty()) {
      return;
    }
    Set<String> inserted = bindRows(handle.createQuery(INSERT_MESSAGES + " on conflict do nothing returning conv_id, seq"),
            guarded.stream().map(ProjectionPlan.Append::message).toList())
        .map((row, ctx) -> row.getString(1) + '\t' + row.getLong(2))
        .collect(Collectors.toSet());
    for (ProjectionPlan.Append append : guarded) {
      Message message = append.message();
      if (!append.repeat() && !inserted.contains(message.getConvId() + '\t' + message.getSeq())) {
        // A new seq whose msgId is stored already, at another seq: the sequencer reused an id.
        log.error("message {} of {} at seq {} not stored: its msgId is stored already at another seq",
            message.getMsgId(), message.getConvId(), message.getSeq());
      }
    }
  }

  private static <S extends SqlStatement<S>> S bindRows(S insert, List<Message> messages) {
    int size = messages.size();
    String[] convIds = new String[size];
    Long[] seqs = new Long[size];
    Long[] msgIds = new Long[size];
    Long[] senderIds = new Long[size];
    String[] senderDevices = new String[size];
    String[] clientMsgIds = new String[size];
    String[] types = new String[size];
    String[] contents = new String[size];
    Long[] createTimes = new Long[size];
    String[] attachments = new String[size];
    for (int i = 0; i < size; i++) {
      Message message = messages.get(i);
      convIds[i] = message.getConvId();
      seqs[i] = message.getSeq();
      msgIds[i] = message.getMsgId();
      senderIds[i] = message.getSenderId();
      senderDevices[i] = message.getSenderDevice();
      clientMsgIds[i] = message.getClientMsgId();
      types[i] = StoredMessage.apiType(message.getType());
      contents[i] = message.getContent();
      createTimes[i] = message.getCreateTime();
      attachments[i] = StoredMessage.attachmentJson(message.getAttachment());
    }
    return insert
        .bindArray("convIds", String.class, (Object[]) convIds)
        .bindArray("seqs", Long.class, (Object[]) seqs)
        .bindArray("msgIds", Long.class, (Object[]) msgIds)
        .bindArray("senderIds", Long.class, (Object[]) senderIds)
        .bindArray("senderDevices", String.class, (Object[]) senderDevices)
        .bindArray("clientMsgIds", String.class, (Object[]) clientMsgIds)
        .bindArray("types", String.class, (Object[]) types)
        .bindArray("contents", String.class, (Object[]) contents)
        .bindArray("createTimes", Long.class, (Object[]) createTimes)
        .bindArray("attachments", String.class, (Object[]) attachments);
  }

  // A recalled message older than the hot window is in the archive (R22): the recall applies there.
  private static void markRecalled(Handle handle, ProjectionPlan plan) {
    int[] updated = markRecalled(handle, "messages", plan.recalls);
    List<ProjectionPlan.Recall> archived = new ArrayList<>();
    for (int i = 0; i < updated.length; i++) {
      if (updated[i] == 0) {
        archived.add(plan.recalls.get(i));
      }
    }
    int[] updatedInArchive = markRecalled(handle, "archived_messages", archived);
    for (int i = 0; i < updatedInArchive.length; i++) {
      if (updatedInArchive[i] == 0) {
        log.warn("recall of {} seq {}: no such message stored", archived.get(i).convId(), archived.get(i).seq());
      }
    }
  }

  private static int[] markRecalled(Handle handle, String table, List<ProjectionPlan.Recall> recalls) {
    PreparedBatch batch = handle.prepareBatch(
        "update " + table + " set recalled = true, content = ?, attachment = null where conv_id = ? and seq = ?");
    recalls.forEach(recall -> batch.add(StoredMessage.RECALLED_PLACEHOLDER, recall.convId(), recall.seq()));
    return execute(batch);
  }

  private static void changeMembers(Handle handle, ProjectionPlan plan) {
    PreparedBatch removals = handle.prepareBatch("delete from conversation_members where conv_id = ? and user_id = ?");
    plan.memberRemovals.forEach(member -> removals.add(member.convId(), member.userId()));
    execute(removals);
    PreparedBatch joins = handle.prepareBatch(
        "insert into conversation_members (conv_id, user_id, joined_seq) values (?, ?, ?) on conflict do nothing");
    plan.memberJoins.forEach((member, joinedSeq) -> joins.add(member.convId(), member.userId(), joinedSeq));
    execute(joins);
    PreparedBatch roles = handle.prepareBatch("update conversation_members set role = ? where conv_id = ? and user_id = ?");
    plan.memberRoles.forEach((member, role) -> roles.add(role, member.convId(), member.userId()));
    execute(roles);
  }

  private static void changeBlocks(Handle handle, ProjectionPlan plan) {
    PreparedBatch blocks = handle.prepareBatch("insert into blocks (blocker_id, blocked_id, since) values (?, ?, ?)"
        + " on conflict (blocker_id, blocked_id) do nothing");
    PreparedBatch unblocks = handle.prepareBatch("delete from blocks where blocker_id = ? and blocked_id = ?");
    plan.blocks.forEach((pair, blocked) -> {
      if (blocked) {
        blocks.add(pair.blockerId(), pair.blockedId(), plan.blockTimes.get(pair));
      } else {
        unblocks.add(pair.blockerId(), pair.blockedId());
      }
    });
    execute(unblocks);
    execute(blocks);
  }

  private static void changeListSettings(Handle handle, ProjectionPlan plan) {
    PreparedBatch changes = handle.prepareBatch("insert into conversation_settings (user_id, conv_id, muted, pinned)"
        + " values (?, ?, coalesce(?, false), coalesce(?, false)) on conflict (user_id, conv_id) do update set"
        + " muted = coalesce(cast(? as boolean), conversation_settings.muted),"
        + " pinned = coalesce(cast(? as boolean), conversation_settings.pinned)");
    plan.listSettings.forEach(change -> changes.add(change.userId(), change.convId(), change.muted(), change.pinned(),
        change.muted(), change.pinned()));
    execute(changes);
  }

  // One statement over arrays, as for the messages.
  private static void updateConversations(Handle handle, ProjectionPlan plan) {
    List<Map.Entry<String, ProjectionPlan.Conversation>> changed = plan.conversations.entrySet().stream()
        .filter(entry -> entry.getValue().changed).toList();
    if (changed.isEmpty()) {
      return;
    }
    handle.createUpdate("update conversations c set latest_seq = v.latest_seq,"
            + " last_activity = greatest(c.last_activity, v.last_activity), name = coalesce(v.name, c.name),"
            + " owner_id = coalesce(v.owner_id, c.owner_id),"
            + " members_can_invite = coalesce(v.members_can_invite, c.members_can_invite)"
            + " from unnest(:convIds, :latestSeqs, :lastActivities, :names, :ownerIds, :invites)"
            + " as v(conv_id, latest_seq, last_activity, name, owner_id, members_can_invite) where c.conv_id = v.conv_id")
        .bindArray("convIds", String.class, changed.stream().map(Map.Entry::getKey).toArray())
        .bindArray("latestSeqs", Long.class, changed.stream().map(entry -> entry.getValue().latestSeq).toArray())
        .bindArray("lastActivities", Long.class, changed.stream().map(entry -> entry.getValue().lastActivity).toArray())
        .bindArray("names", String.class, changed.stream().map(entry -> entry.getValue().name).toArray())
        .bindArray("ownerIds", Long.class, changed.stream().map(entry -> entry.getValue().ownerId).toArray())
        .bindArray("invites", Boolean.class, changed.stream().map(entry -> entry.getValue().membersCanInvite).toArray())
        .execute();
  }

  private static void recordGaps(Handle handle, ProjectionPlan plan) {
    PreparedBatch batch = handle.prepareBatch(
        "insert into seq_anomalies (conv_id, expected_seq, actual_seq, msg_id) values (?, ?, ?, ?)");
    plan.anomalies.stream().filter(anomaly -> anomaly.kind() == ProjectionAnomaly.Kind.GAP).forEach(gap ->
        batch.add(gap.convId(), gap.expectedSeq(), gap.actualSeq(), gap.msgId()));
    execute(batch);
  }

  // Positions only move forward (R12, R18): greatest() also keeps a replayed batch from moving one back.
  private static void upsertPositions(Handle handle, ProjectionPlan plan) {
    PreparedBatch cursors = handle.prepareBatch("insert into device_cursors (user_id, device_id, conv_id, seq)"
        + " values (?, ?, ?, ?) on conflict (user_id, device_id, conv_id)"
        + " do update set seq = greatest(device_cursors.seq, excluded.seq)");
    plan.cursors.forEach((cursor, seq) -> cursors.add(cursor.userId(), cursor.deviceId(), cursor.convId(), seq));
    execute(cursors);
    // Every sent message moves its sender's read position: one statement over arrays, as for the
    // messages (the map holds each user and conversation once, as ON CONFLICT DO UPDATE requires).
    if (!plan.reads.isEmpty()) {
      handle.createUpdate("insert into read_positions (user_id, conv_id, seq)"
              + " select * from unnest(:userIds, :convIds, :seqs)"
              + " on conflict (user_id, conv_id) do update set seq = greatest(read_positions.seq, excluded.seq)")
          .bindArray("userIds", Long.class, plan.reads.keySet().stream().map(ProjectionPlan.UserPosition::userId).toArray())
          .bindArray("convIds", String.class, plan.reads.keySet().stream().map(ProjectionPlan.UserPosition::convId).toArray())
          .bindArray("seqs", Long.class, plan.reads.values().toArray())
          .execute();
    }
    PreparedBatch drafts = handle.prepareBatch("insert into drafts (user_id, conv_id, device_id, text, updated_at)"
        + " values (?, ?, ?, ?, ?) on conflict (user_id, conv_id) do update"
        + " set device_id = excluded.device_id, text = excluded.text, updated_at = excluded.updated_at");
    plan.drafts.forEach((key, draft) -> drafts.add(key.userId(), key.convId(), draft.deviceId(), draft.text(), draft.updatedAt()));
    execute(drafts);
  }

  // An empty PreparedBatch must not be executed: skip it.
  private static int[] execute(PreparedBatch batch) {
    return batch.size() == 0 ? new int[0] : batch.execute();
  }
}
