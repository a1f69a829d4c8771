package io.seqsync.projector;

import io.seqsync.events.model.CursorAdvanced;
import io.seqsync.events.model.DraftUpdated;
import io.seqsync.events.model.Event;
import io.seqsync.events.model.MembershipChanged;
import io.seqsync.events.model.MessageAppended;
import io.seqsync.events.model.ReadAdvanced;
import io.seqsync.events.model.RecallApplied;
import io.seqsync.store.ProjectionResult;
import io.seqsync.store.PushNotice;
import io.seqsync.store.StoredMessage;
import java.util.List;
import org.jdbi.v3.core.Jdbi;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.JedisPooled;

/**
 * Pushes what a batch committed to the devices concerned (R1, R19, R21), one Redis publication
 * per notice naming its recipient users (see {@link PushNotice}): messages, recalls and membership changes to every member, read
 * positions to every member (receipts, and the reader's other devices), cursors and drafts to the
 * user's own devices. Runs after the commit, and after the index listener, so a device told of
 * a message can fetch it and list it. One pipeline per batch keeps the frames in event order.
 */
public final class PushPublisher implements CommitListener {
  private final Jdbi jdbi;
  private final JedisPooled redis;

  public PushPublisher(Jdbi jdbi, JedisPooled redis) {
    this.jdbi = jdbi;
    this.redis = redis;
  }

  @Override
  public void committed(List<Event> events, ProjectionResult result) {
    ConversationMembers members = new ConversationMembers(jdbi);
    try (AbstractPipeline pipeline = redis.pipelined()) {
      for (Event event : events) {
        publish(pipeline, event, members);
      }
    }
  }

  private static void publish(AbstractPipeline pipeline, Event event, ConversationMembers members) {
    String convId = event.getConvId();
    Object payload = event.getPayload();
    if (payload instanceof MessageAppended appended) {
      toMembers(pipeline, PushNotice.message(StoredMessage.of(appended.getMessage())), members);
    } else if (payload instanceof RecallApplied recall) {
      StoredMessage notice = StoredMessage.of(recall.getNotice());
      toMembers(pipeline, PushNotice.message(notice), members);
      toMembers(pipeline, PushNotice.recall(notice, recall.getRecalledSeq()), members);
    } else if (payload instanceof MembershipChanged change) {
      members.forget(convId);
      StoredMessage notice = StoredMessage.of(change.getNotice());
      PushNotice membership = PushNotice.membership(notice, change.getAdded(), change.getRemoved());
      toMembers(pipeline, PushNotice.message(notice), members);
      toMembers(pipeline, membership, members);
      membership.publish(pipeline, change.getRemoved());
    } else if (payload instanceof ReadAdvanced read) {
      toMembers(pipeline, PushNotice.position(PushNotice.Kind.READ, convId, read.getUserId(), read.getDeviceId(),
          read.getSeq()), members);
    } else if (payload instanceof CursorAdvanced cursor) {
      PushNotice.position(PushNotice.Kind.CURSOR, convId, cursor.getUserId(), cursor.getDeviceId(), cursor.getSeq())
          .publish(pipeline, cursor.getUserId());
    } else if (payload instanceof DraftUpdated draft) {
      PushNotice.draft(convId, draft.getUserId(), draft.getDeviceId(), draft.getText())
          .publish(pipeline, draft.getUserId());
    }
  }

  private static void toMembers(AbstractPipeline pipeline, PushNotice notice, ConversationMembers members) {
    notice.publish(pipeline, members.of(notice.convId()));
  }
}
