package io.seqsync.notifier.push;

import io.seqsync.events.ConvId;
import io.seqsync.events.model.Message;
import io.seqsync.events.model.MessageAppended;
import io.seqsync.events.model.ReadAdvanced;
import io.seqsync.notifier.Delivery;
import io.seqsync.notifier.LoggedEvent;
import io.seqsync.store.ConversationQueries;
import java.util.ArrayList;
import java.util.List;
import io.seqsync.store.shard.ShardMap;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/**
 * Which pushers an event calls on. A message a person sent ({@link ConversationQueries#COUNTABLE_TYPES},
 * not a notice): every pusher of every other member whose list does not mute the conversation (a
 * direct conversation's two users come from its id, a group's members from the projection). A
 * read: the reader's pushers on their other devices (the badge changed). Stateless.
 */
final class PushPlanner {
  static final String READ_STREAM_SUFFIX = "#read";
  private static final int PREVIEW_CHARS = 120;

  private final boolean preview;
  private final Optional<ShardMap> shards;

  /** {@code shards} present: the planner's handle is the home shard's, members and settings are in the conversation's. */
  PushPlanner(boolean preview, Optional<ShardMap> shards) {
    this.preview = preview;
    this.shards = shards;
  }

  List<Delivery> plan(Handle handle, List<LoggedEvent> events) {
    List<Delivery> deliveries = new ArrayList<>();
    for (LoggedEvent logged : events) {
      Object payload = logged.event().getPayload();
      String convId = logged.event().getConvId();
      if (payload instanceof MessageAppended appended
          && ConversationQueries.COUNTABLE_TYPES.contains(appended.getMessage().getType().name().toLowerCase())) {
        Message message = appended.getMessage();
        for (Recipient recipient : messageRecipients(handle, convId, message.getSenderId())) {
          deliveries.add(new Delivery(Long.toString(recipient.pusherId()), convId, message.getSeq(),
              new PlannedNotification(PlannedNotification.MESSAGE, recipient.pusherId(), recipient.userId(),
                  recipient.deviceId(), convId, message.getSeq(), message.getMsgId(), message.getSenderId(),
                  message.getType().name().toLowerCase(), preview ? preview(message) : null).toBytes()));
        }
      } else if (payload instanceof ReadAdvanced read) {
        for (Recipient recipient : readRecipients(handle, read)) {
          deliveries.add(new Delivery(Long.toString(recipient.pusherId()), convId + READ_STREAM_SUFFIX, read.getSeq(),
              new PlannedNotification(PlannedNotification.READ, recipient.pusherId(), recipient.userId(),
                  recipient.deviceId(), convId, read.getSeq(), null, null, null, null).toBytes()));
        }
      }
    }
    return deliveries;
  }

  private record Recipient(long pusherId, long userId, String deviceId) {}

  private List<Recipient> messageRecipients(Handle handle, String convId, long senderId) {
    ConvId id = ConvId.parse(convId).orElseThrow();
    // Who is to be told comes from the conversation's shard, their pushers from the home one (the
    // planner's handle); with one database both are the handle.
    List<Long> told = shards.isPresent()
        ? shards.get().of(convId).withHandle(shard -> told(shard, id, senderId))
        : told(handle, id, senderId);
    if (told.isEmpty()) {
      return List.of();
    }
    return handle.createQuery("select pusher_id, user_id, device_id from pushers where user_id = any(:users)"
            + " order by pusher_id")
        .bindArray("users", Long.class, told)
        .map((rs, ctx) -> new Recipient(rs.getLong("pusher_id"), rs.getLong("user_id"), rs.getString("device_id")))
        .list();
  }

  // The members (as the store reads them) but the sender, less those who muted the conversation.
  private static List<Long> told(Handle handle, ConvId convId, long senderId) {
    List<Long> others = ConversationQueries.members(handle, convId).stream()
        .filter(userId -> userId != senderId).toList();
    if (others.isEmpty()) {
      return others;
    }
    return handle.createQuery("select m.user_id from unnest(cast(:users as bigint[])) as m(user_id)"
            + " left join conversation_settings s on s.user_id = m.user_id and s.conv_id = :conv"
            + " where not coalesce(s.muted, false)")
        .bindArray("users", Long.class, others).bind("conv", convId.value())
        .mapTo(Long.class).list();
  }

  private static List<Recipient> readRecipients(Handle handle, ReadAdvanced read) {
    return handle.createQuery("select pusher_id, user_id, device_id from pushers where user_id = :user"
            + " and device_id <> :device order by pusher_id")
        .bind("user", read.getUserId()).bind("device", read.getDeviceId())
        .map((rs, ctx) -> new Recipient(rs.getLong("pusher_id"), rs.getLong("user_id"), rs.getString("device_id")))
        .list();
  }

  private static String preview(Message message) {
    String content = message.getContent();
    if (!"text".equals(message.getType().name().toLowerCase())) {
      return "[" + message.getType().name().toLowerCase() + "]";
    }
    return content.codePointCount(0, content.length()) <= PREVIEW_CHARS ? content
        : content.substring(0, content.offsetByCodePoints(0, PREVIEW_CHARS)) + "…";
  }
}
