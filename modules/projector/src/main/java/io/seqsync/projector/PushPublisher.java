package io.seqsync.projector;

import io.seqsync.events.ConvId;
import io.seqsync.events.model.CursorAdvanced;
import io.seqsync.events.model.DraftUpdated;
import io.seqsync.events.model.Event;
import io.seqsync.events.model.GroupRolesChanged;
import io.seqsync.events.model.GroupSettingsChanged;
import io.seqsync.events.model.MembershipChanged;
import io.seqsync.events.model.MessageAppended;
import io.seqsync.events.model.ReadAdvanced;
import io.seqsync.events.model.MessageEdited;
import io.seqsync.events.model.ReactionChanged;
import io.seqsync.events.model.RecallApplied;
import io.seqsync.redis.PushNotice;
import io.seqsync.redis.RedisHealth;
import io.seqsync.redis.SocketRegistry;
import io.seqsync.store.ConversationQueries;
import io.seqsync.store.StoredMessage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Pushes what a batch committed to the devices concerned (R1, R19, R21), one line per notice
 * naming its recipient users, sent only to the app instances that hold a recipient's socket
 * ({@link SocketRegistry}): to each such instance the batch's lines naming its users, in one
 * publication on its own channel (see {@link PushNotice}), so an instance hears of its own users
 * alone however many instances there are:
 * messages, recalls and membership changes to every member, read positions to every member
 * (receipts, and the reader's other devices), cursors and drafts to the user's own devices, and
 * each cursor as a delivered receipt to the other members. Runs
 * after the commit, and after the index listener, so a device told of a message can fetch it and
 * list it. The lines keep the batch's event order. Push is best effort: while Redis is unavailable
 * ({@link RedisHealth}) a batch is not pushed (devices pull what they missed when they reconnect or
 * sync), rather than each batch waiting out a timeout.
 */
public final class PushPublisher implements CommitListener {
  private final ConversationQueries conversations;
  private final UnifiedJedis redis;
  private final SocketRegistry sockets;
  private final RedisHealth health;

  public PushPublisher(ConversationQueries conversations, UnifiedJedis redis, SocketRegistry sockets,
      RedisHealth health) {
    this.conversations = conversations;
    this.redis = redis;
    this.sockets = sockets;
    this.health = health;
  }

  @Override
  public void committed(CommittedBatch batch) {
    if (!health.available()) {
      return;
    }
    List<Event> events = batch.events();
    List<Set<Long>> recipients = membersAtEachEvent(events, this::committedMembers);
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < events.size(); i++) {
      address(events.get(i), recipients.get(i), lines);
    }
    if (lines.isEmpty()) {
      return;
    }
    Set<Long> users = new HashSet<>();
    lines.forEach(line -> users.addAll(PushNotice.recipients(line)));
    try {
      Map<String, Set<Long>> instances = sockets.instances(users);
      try (AbstractPipeline pipeline = redis.pipelined()) {
        instances.forEach((instance, held) ->
            PushNotice.publish(pipeline, instance, PushNotice.readdressed(lines, held::contains)));
      }
    } catch (JedisException e) {
      health.failed(e);
    }
  }

  /**
   * The members of each event's conversation as of that event: the committed membership undone,
   * walking the batch backwards, by every later change of the batch. So a user added later in the
   * batch is not pushed the messages before their arrival, and one removed later still gets them.
   * A membership notice goes to the members after its change. Events between two changes share
   * one set.
   */
  static List<Set<Long>> membersAtEachEvent(List<Event> events, Function<String, List<Long>> committed) {
    Map<String, Set<Long>> current = new HashMap<>();
    List<Set<Long>> atEvent = new ArrayList<>(Collections.nCopies(events.size(), Set.of()));
    for (int i = events.size() - 1; i >= 0; i--) {
      Event event = events.get(i);
      Set<Long> members = current.computeIfAbsent(event.getConvId(), convId -> Set.copyOf(committed.apply(convId)));
      atEvent.set(i, members);
      if (event.getPayload() instanceof MembershipChanged change) {
        Set<Long> before = new HashSet<>(members);
        before.removeAll(change.getAdded());
        before.addAll(change.getRemoved());
        current.put(event.getConvId(), Set.copyOf(before));
      }
    }
    return atEvent;
  }

  // A direct conversation's two users come from its id, a group's from PostgreSQL (read once per
  // batch and conversation by membersAtEachEvent).
  private List<Long> committedMembers(String convId) {
    return conversations.members(ConvId.parse(convId).orElseThrow());
  }

  private static void address(Event event, Set<Long> members, List<String> lines) {
    String convId = event.getConvId();
    Object payload = event.getPayload();
    if (payload instanceof MessageAppended appended) {
      PushNotice.message(StoredMessage.of(appended.getMessage())).address(members, lines);
    } else if (payload instanceof RecallApplied recall) {
      StoredMessage notice = StoredMessage.of(recall.getNotice());
      PushNotice.message(notice).address(members, lines);
      PushNotice.recall(notice, recall.getRecalledSeq()).address(members, lines);
    } else if (payload instanceof MembershipChanged change) {
      StoredMessage notice = StoredMessage.of(change.getNotice());
      PushNotice membership = PushNotice.membership(notice, change.getAdded(), change.getRemoved());
      PushNotice.message(notice).address(members, lines);
      membership.address(members, lines);
      membership.address(change.getRemoved(), lines);
    } else if (payload instanceof GroupRolesChanged roles) {
      groupNotice(StoredMessage.of(roles.getNotice()), members, lines);
    } else if (payload instanceof GroupSettingsChanged settings) {
      groupNotice(StoredMessage.of(settings.getNotice()), members, lines);
    } else if (payload instanceof MessageEdited edit) {
      PushNotice.message(StoredMessage.of(edit.getNotice())).address(members, lines);
    } else if (payload instanceof ReactionChanged reaction) {
      PushNotice.message(StoredMessage.of(reaction.getNotice())).address(members, lines);
    } else if (payload instanceof ReadAdvanced read) {
      PushNotice.position(PushNotice.Kind.READ, convId, read.getUserId(), read.getDeviceId(), read.getSeq())
          .address(members, lines);
    } else if (payload instanceof CursorAdvanced cursor) {
      PushNotice.position(PushNotice.Kind.CURSOR, convId, cursor.getUserId(), cursor.getDeviceId(), cursor.getSeq())
          .address(List.of(cursor.getUserId()), lines);
      PushNotice.position(PushNotice.Kind.DELIVERED, convId, cursor.getUserId(), cursor.getDeviceId(), cursor.getSeq())
          .address(others(members, cursor.getUserId()), lines);
    } else if (payload instanceof DraftUpdated draft) {
      PushNotice.draft(convId, draft.getUserId(), draft.getDeviceId(), draft.getText())
          .address(List.of(draft.getUserId()), lines);
    }
  }

  private static List<Long> others(Set<Long> members, long userId) {
    return members.stream().filter(member -> member != userId).toList();
  }

  // A role or settings notice: a message frame and a membership frame (whose roles or settings the
  // ingress reads from the notice), to every member.
  private static void groupNotice(StoredMessage notice, Set<Long> members, List<String> lines) {
    PushNotice.message(notice).address(members, lines);
    PushNotice.membership(notice, List.of(), List.of()).address(members, lines);
  }
}
