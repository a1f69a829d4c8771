package io.seqsync.projector;

import io.seqsync.events.ConvId;
import io.seqsync.events.model.CursorAdvanced;
import io.seqsync.events.model.DraftUpdated;
import io.seqsync.events.model.Event;
import io.seqsync.events.model.MembershipChanged;
import io.seqsync.events.model.MessageAppended;
import io.seqsync.events.model.ReadAdvanced;
import io.seqsync.events.model.RecallApplied;
import io.seqsync.store.ConversationIndex;
import io.seqsync.store.ConversationQueries;
import io.seqsync.store.ProjectionResult;
import io.seqsync.store.StoredMessage;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/**
 * Keeps the Redis conversation index (R20) in step with PostgreSQL: told about each batch after
 * its commit, so nothing is listed or counted before it is fetchable (R1). What an event does not
 * carry (a group's members, the sender and type of a recalled message) is read from the committed
 * rows. The index only merges forward, so a replayed batch changes nothing. A message costs O(1)
 * Redis writes whatever the group's size: members find their groups through their group set.
 */
public final class ConversationIndexer implements CommitListener {
  private final Jdbi jdbi;
  private final ConversationIndex index;

  public ConversationIndexer(Jdbi jdbi, ConversationIndex index) {
    this.jdbi = jdbi;
    this.index = index;
  }

  @Override
  public void committed(List<Event> events, ProjectionResult result) {
    try (ConversationIndex.Batch batch = index.batch()) {
      for (Event event : events) {
        apply(batch, event);
      }
    }
  }

  private void apply(ConversationIndex.Batch batch, Event event) {
    String convId = event.getConvId();
    Object payload = event.getPayload();
    if (payload instanceof MessageAppended appended) {
      appendedMessage(batch, StoredMessage.of(appended.getMessage()), true);
    } else if (payload instanceof RecallApplied recall) {
      appendedMessage(batch, StoredMessage.of(recall.getNotice()), false);
      recalledSender(convId, recall.getRecalledSeq())
          .ifPresent(sender -> batch.recall(convId, recall.getRecalledSeq(), sender));
    } else if (payload instanceof MembershipChanged change) {
      appendedMessage(batch, StoredMessage.of(change.getNotice()), false);
      if (change.getGroupName() != null) {
        batch.named(convId, change.getGroupName());
      }
      // A new member's history starts at this notice: nothing before it counts as unread.
      change.getAdded().forEach(userId -> batch.joined(userId, convId).read(userId, convId, change.getNotice().getSeq()));
      change.getRemoved().forEach(userId -> batch.unlisted(userId, convId));
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

  // Only a countable message counts as recalled: the recalled set must stay within the countable one.
  // In either tier: the archive job may have moved it since the recall was accepted.
  private Optional<Long> recalledSender(String convId, long seq) {
    return jdbi.withHandle(handle -> handle.createQuery("select sender_id from all_messages"
            + " where conv_id = :conv and seq = :seq and type in (<types>)")
        .bind("conv", convId).bind("seq", seq).bindList("types", ConversationQueries.COUNTABLE_TYPES)
        .mapTo(Long.class).findOne());
  }
}
