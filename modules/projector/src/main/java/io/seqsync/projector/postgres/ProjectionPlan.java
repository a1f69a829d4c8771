package io.seqsync.projector.postgres;

import io.seqsync.events.AppendedMessages;
import io.seqsync.events.Announcements;
import io.seqsync.events.model.BlockChanged;
import io.seqsync.events.model.CommandRejected;
import io.seqsync.events.model.CursorAdvanced;
import io.seqsync.events.model.DraftUpdated;
import io.seqsync.events.model.Event;
import io.seqsync.events.model.GroupRolesChanged;
import io.seqsync.events.model.GroupSettingsChanged;
import io.seqsync.events.model.ListSettingsChanged;
import io.seqsync.events.model.MembershipChanged;
import io.seqsync.events.model.Message;
import io.seqsync.events.model.MessageAppended;
import io.seqsync.events.model.MessageEdited;
import io.seqsync.events.model.ReactionChanged;
import io.seqsync.events.model.ReadAdvanced;
import io.seqsync.events.model.RecallApplied;
import io.seqsync.events.model.RoleChange;
import io.seqsync.events.model.StoredOutcome;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The effect of one batch of events on the tables, folded in memory in event order, so that each
 * table is then written with one batched statement: positions keep their maximum, drafts and
 * memberships their last state, conversations their new latest seq. Checks seq continuity (R25)
 * on the way. Not thread-safe: one per batch, on the projecting thread.
 */
final class ProjectionPlan {
  private static final Logger log = LoggerFactory.getLogger(ProjectionPlan.class);

  /** A message row to insert; a {@code repeat} is inserted only where no row exists (a late hole filler). */
  record Append(Message message, boolean repeat) {}

  record Recall(String convId, long seq) {}

  record Member(String convId, long userId) {}

  record DeviceCursor(long userId, String deviceId, String convId) {}

  record UserPosition(long userId, String convId) {}

  record Draft(String deviceId, String text, long updatedAt) {}

  /** A block between two users: blocker and blocked. */
  record Block(long blockerId, long blockedId) {}

  /** A user's change of their list settings of a conversation; null keeps a setting. */
  record ListSettings(long userId, String convId, Boolean muted, Boolean pinned) {}

  /** A conversation's row after the batch; {@code name}, {@code ownerId} and {@code membersCanInvite} null keep the stored ones. */
  static final class Conversation {
    long latestSeq;
    long lastActivity;
    String name;
    Long ownerId;
    Boolean membersCanInvite;
    boolean changed;

    Conversation(long latestSeq) {
      this.latestSeq = latestSeq;
    }
  }

  final Map<String, Conversation> conversations = new LinkedHashMap<>();
  final List<Append> appends = new ArrayList<>();
  final List<Recall> recalls = new ArrayList<>();
  // Deleted before the inserts run: a member removed and re-added in one batch gets the new joined_seq.
  final Set<Member> memberRemovals = new LinkedHashSet<>();
  final Map<Member, Long> memberJoins = new LinkedHashMap<>();
  // Written after the joins: a member's role column ('admin' or 'member'; the owner is the conversation's owner_id).
  final Map<Member, String> memberRoles = new LinkedHashMap<>();
  // The last state of each pair in the batch: true blocked, false unblocked.
  final Map<Block, Boolean> blocks = new LinkedHashMap<>();
  final Map<Block, Long> blockTimes = new LinkedHashMap<>();
  // In the log's order: each change keeps what it does not name.
  final List<ListSettings> listSettings = new ArrayList<>();
  final Map<DeviceCursor, Long> cursors = new LinkedHashMap<>();
  final Map<UserPosition, Long> reads = new LinkedHashMap<>();
  final Map<UserPosition, Draft> drafts = new LinkedHashMap<>();
  final List<StoredOutcome> outcomes = new ArrayList<>();
  final ActionsPlan actions = new ActionsPlan();
  final List<ProjectionAnomaly> anomalies = new ArrayList<>();

  /** Folds {@code events}, given the latest seq stored for every conversation they append to. */
  static ProjectionPlan of(List<Event> events, Map<String, Long> latestSeqs) {
    ProjectionPlan plan = new ProjectionPlan();
    latestSeqs.forEach((convId, latest) -> plan.conversations.put(convId, new Conversation(latest)));
    events.forEach(plan::add);
    return plan;
  }

  /** The message a payload appends (a message, a recall or membership notice), or null. */
  static Message appendedMessage(Object payload) {
    return AppendedMessages.of(payload);
  }

  private void add(Event event) {
    Object payload = event.getPayload();
    Message message = appendedMessage(payload);
    if (message != null) {
      outcomes.add(Announcements.appended(event.getCommandId(), event.getConvId(), message.getSeq(), message.getMsgId(),
          message.getCreateTime()));
      // A repeated seq was applied before, with all its effects: only the row may be missing.
      if (append(message)) {
        applySideEffects(payload, message);
      }
    } else if (payload instanceof CursorAdvanced cursor) {
      cursors.merge(new DeviceCursor(cursor.getUserId(), cursor.getDeviceId(), event.getConvId()), cursor.getSeq(), Math::max);
      outcomes.add(Announcements.applied(event.getCommandId(), event.getConvId(), cursor.getSeq()));
    } else if (payload instanceof ReadAdvanced read) {
      reads.merge(new UserPosition(read.getUserId(), event.getConvId()), read.getSeq(), Math::max);
      actions.readReports.merge(new UserPosition(read.getUserId(), event.getConvId()), read.getSeq(), Math::max);
      outcomes.add(Announcements.applied(event.getCommandId(), event.getConvId(), read.getSeq()));
    } else if (payload instanceof DraftUpdated draft) {
      drafts.put(new UserPosition(draft.getUserId(), event.getConvId()),
          new Draft(draft.getDeviceId(), draft.getText(), event.getTime()));
      outcomes.add(Announcements.applied(event.getCommandId(), event.getConvId(), 0));
    } else if (payload instanceof BlockChanged block) {
      Block pair = new Block(block.getUserId(), block.getBlockedId());
      blocks.put(pair, block.getBlocked());
      blockTimes.put(pair, event.getTime());
      outcomes.add(Announcements.applied(event.getCommandId(), event.getConvId(), 0));
    } else if (payload instanceof ListSettingsChanged settings) {
      listSettings.add(new ListSettings(settings.getUserId(), event.getConvId(), settings.getMuted(), settings.getPinned()));
      outcomes.add(Announcements.applied(event.getCommandId(), event.getConvId(), 0));
    } else if (payload instanceof CommandRejected rejected) {
      String detail = rejected.getDetail().isEmpty() ? "" : ": " + rejected.getDetail();
      outcomes.add(Announcements.rejected(event.getCommandId(), event.getConvId(), rejected.getReason() + detail));
    } else {
      log.warn("event of command {} in {} has a payload this projector does not know ({}): nothing stored",
          event.getCommandId(), event.getConvId(), payload == null ? "null" : payload.getClass().getSimpleName());
    }
  }

  /** Queues the row and checks its seq; false for a repeat, which is never written over. */
  private boolean append(Message message) {
    Conversation conversation = conversations.get(message.getConvId());
    long expected = conversation.latestSeq + 1;
    long seq = message.getSeq();
    if (seq < expected) {
      log.warn("seq repeated in {}: got {} at or below the latest {} (msgId {}); the stored row is kept",
          message.getConvId(), seq, expected - 1, message.getMsgId());
      anomalies.add(new ProjectionAnomaly(ProjectionAnomaly.Kind.REPEAT, message.getConvId(), expected, seq, message.getMsgId()));
      appends.add(new Append(message, true));
      return false;
    }
    if (seq > expected) {
      log.error("seq gap in {}: expected {}, got {} (msgId {}); stored anyway, recorded in seq_anomalies",
          message.getConvId(), expected, seq, message.getMsgId());
      anomalies.add(new ProjectionAnomaly(ProjectionAnomaly.Kind.GAP, message.getConvId(), expected, seq, message.getMsgId()));
    }
    appends.add(new Append(message, false));
    conversation.latestSeq = seq;
    conversation.lastActivity = Math.max(conversation.lastActivity, message.getCreateTime());
    conversation.changed = true;
    return true;
  }

  private void applySideEffects(Object payload, Message notice) {
    if (payload instanceof MessageAppended) {
      // The sender has read what they sent (R18), as the sequencer's read store says too.
      reads.merge(new UserPosition(notice.getSenderId(), notice.getConvId()), notice.getSeq(), Math::max);
      actions.sent(notice);
    } else if (payload instanceof MessageEdited edit) {
      actions.edited(edit);
    } else if (payload instanceof ReactionChanged reaction) {
      actions.reacted(reaction);
    } else if (payload instanceof RecallApplied recall) {
      recalls.add(new Recall(notice.getConvId(), recall.getRecalledSeq()));
    } else if (payload instanceof MembershipChanged change) {
      String convId = notice.getConvId();
      change.getAdded().forEach(userId -> {
        memberJoins.putIfAbsent(new Member(convId, userId), notice.getSeq());
        memberRoles.remove(new Member(convId, userId));
        // History starts at the joining notice: nothing before it is unread (as the sequencer's read store says).
        reads.merge(new UserPosition(userId, convId), notice.getSeq(), Math::max);
      });
      change.getRemoved().forEach(userId -> {
        memberJoins.remove(new Member(convId, userId));
        memberRoles.remove(new Member(convId, userId));
        memberRemovals.add(new Member(convId, userId));
      });
      if (change.getGroupName() != null) {
        conversations.get(convId).name = change.getGroupName();
        conversations.get(convId).ownerId = notice.getSenderId();
      }
      change.getRoleChanges().forEach(role -> changeRole(convId, role));
    } else if (payload instanceof GroupRolesChanged roles) {
      roles.getChanges().forEach(role -> changeRole(notice.getConvId(), role));
    } else if (payload instanceof GroupSettingsChanged settings) {
      conversations.get(notice.getConvId()).membersCanInvite = settings.getMembersCanInvite();
    }
  }

  // The owner is the conversation's owner_id; its member row's role goes back to 'member'.
  private void changeRole(String convId, RoleChange change) {
    if ("owner".equals(change.getRole())) {
      conversations.get(convId).ownerId = change.getUserId();
    }
    memberRoles.put(new Member(convId, change.getUserId()), "admin".equals(change.getRole()) ? "admin" : "member");
  }
}
