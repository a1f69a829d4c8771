package io.seqsync.notifier.push;

import io.seqsync.redis.SocketRegistry;
import io.seqsync.store.BadgeQueries;
import io.seqsync.store.ListSettingsQueries;
import io.seqsync.store.PusherQueries;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the notifications of one dispatched batch need, looked up in four round trips whatever the
 * batch's size: the pushers, which conversations their users muted, the badges, and which devices
 * hold a live socket (empty when the presence registry did not answer: notify). Immutable.
 */
record PushLookups(Map<Long, PusherQueries.Pusher> pushers, Set<String> muted,
    Map<BadgeQueries.Ask, BadgeQueries.Badge> badges, Map<Long, Map<String, Boolean>> live) {
  private static final Logger log = LoggerFactory.getLogger(PushLookups.class);

  static PushLookups of(List<PlannedNotification> planned, PusherQueries pushers, ListSettingsQueries settings,
      BadgeQueries badges, Optional<SocketRegistry> sockets) {
    List<Long> users = planned.stream().map(PlannedNotification::userId).toList();
    List<String> convs = planned.stream().map(PlannedNotification::convId).toList();
    return new PushLookups(pushers.byIds(planned.stream().map(PlannedNotification::pusherId).distinct().toList()),
        settings.muted(users, convs),
        badges.of(planned.stream().map(p -> new BadgeQueries.Ask(p.userId(), p.convId())).toList()),
        live(sockets, users));
  }

  private static Map<Long, Map<String, Boolean>> live(Optional<SocketRegistry> sockets, List<Long> users) {
    if (sockets.isEmpty()) {
      return Map.of();
    }
    try {
      return sockets.get().liveDevices(users.stream().distinct().toList());
    } catch (RuntimeException e) {
      log.debug("presence unknown: notifying", e);
      return Map.of();
    }
  }

  /** Connected with a socket its client does not say is hidden: the push stream shows it, the user is looking. */
  boolean watching(PlannedNotification planned) {
    Boolean hidden = live.getOrDefault(planned.userId(), Map.of()).get(planned.deviceId());
    return hidden != null && !hidden;
  }

  boolean muted(PlannedNotification planned) {
    return muted.contains(planned.userId() + " " + planned.convId());
  }

  BadgeQueries.Badge badge(PlannedNotification planned) {
    return badges.get(new BadgeQueries.Ask(planned.userId(), planned.convId()));
  }
}
