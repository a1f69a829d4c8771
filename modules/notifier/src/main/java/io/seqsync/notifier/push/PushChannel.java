package io.seqsync.notifier.push;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.seqsync.notifier.Delivery;
import io.seqsync.notifier.DeliveryChannel;
import io.seqsync.notifier.LoggedEvent;
import io.seqsync.notifier.PendingDelivery;
import io.seqsync.notifier.Verdict;
import io.seqsync.redis.SocketRegistry;
import io.seqsync.store.BadgeQueries;
import io.seqsync.store.ListSettingsQueries;
import io.seqsync.store.PusherQueries;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import io.seqsync.store.shard.ShardMap;
import org.jdbi.v3.core.Handle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Push notifications as a {@link DeliveryChannel} ("push"): planned per pusher by {@link
 * PushPlanner}, coalesced per conversation over the window, and decided at send time: nothing when
 * the pusher is gone, the device holds a visible socket now, or (for a message) the conversation is
 * muted now; else the badge as the projection counts it then, to the pusher's gateway (Matrix's
 * push gateway API) or browser push service (Web Push). A message already read elsewhere by then
 * goes as a badge update. A gateway that rejects the pushkey, or a push service that says the
 * subscription is gone (404, 410), has the pusher removed. Thread-safe.
 */
public final class PushChannel implements DeliveryChannel {
  public static final String NAME = "push";
  private static final Logger log = LoggerFactory.getLogger(PushChannel.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final PushPlanner planner;
  private final Ordering ordering;
  private final PusherQueries pushers;
  private final ListSettingsQueries settings;
  private final BadgeQueries badges;
  private final Optional<SocketRegistry> sockets;
  private final GatewayRequests requests;
  // The dispatcher's batch: prepared and read on its thread only.
  private PushLookups prepared;

  public PushChannel(Duration coalesceWindow, boolean preview, PusherQueries pushers, ListSettingsQueries settings,
      BadgeQueries badges, Optional<SocketRegistry> sockets, VapidKeys vapid) {
    this(coalesceWindow, preview, pushers, settings, badges, sockets, vapid, Optional.empty());
  }

  /** With {@code shards} (several): a conversation's members and mute settings read from its shard. */
  public PushChannel(Duration coalesceWindow, boolean preview, PusherQueries pushers, ListSettingsQueries settings,
      BadgeQueries badges, Optional<SocketRegistry> sockets, VapidKeys vapid, Optional<ShardMap> shards) {
    this.planner = new PushPlanner(preview, shards.filter(map -> map.size() > 1));
    this.ordering = Ordering.coalescing(coalesceWindow);
    this.pushers = pushers;
    this.settings = settings;
    this.badges = badges;
    this.sockets = sockets;
    this.requests = new GatewayRequests(vapid);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Ordering ordering() {
    return ordering;
  }

  @Override
  public List<Delivery> plan(Handle handle, List<LoggedEvent> events) {
    return planner.plan(handle, events);
  }

  @Override
  public void prepare(List<PendingDelivery> due) {
    prepared = lookups(due);
  }

  @Override
  public Optional<HttpRequest> request(PendingDelivery delivery) {
    PlannedNotification planned = PlannedNotification.of(delivery.payload());
    PushLookups lookups = prepared != null && prepared.pushers().containsKey(planned.pusherId()) ? prepared
        : lookups(List.of(delivery));
    PusherQueries.Pusher pusher = lookups.pushers().get(planned.pusherId());
    if (pusher == null || lookups.watching(planned) || (planned.isMessage() && lookups.muted(planned))) {
      return Optional.empty();
    }
    BadgeQueries.Badge badge = lookups.badge(planned);
    if (planned.isMessage() && badge.latestSeq() < planned.seq()) {
      // The notifier read the event before the projector stored it: its badge would be short. Try again.
      throw new IllegalStateException("message " + planned.convId() + "/" + planned.seq() + " not projected yet");
    }
    boolean stillUnread = planned.isMessage() && badge.conversation() > 0;
    return Optional.of(requests.request(pusher, planned, stillUnread, badge));
  }

  private PushLookups lookups(List<PendingDelivery> due) {
    return PushLookups.of(due.stream().map(delivery -> PlannedNotification.of(delivery.payload())).toList(),
        pushers, settings, badges, sockets);
  }

  @Override
  public Verdict verdict(PendingDelivery delivery, int status, String body) {
    Verdict verdict = Verdict.ofStatus(status);
    if (verdict == Verdict.DELIVERED && rejectsPushkey(body)) {
      return Verdict.REFUSED;
    }
    return verdict;
  }

  @Override
  public void settled(PendingDelivery delivery, Verdict verdict) {
    if (verdict == Verdict.REFUSED) {
      PlannedNotification planned = PlannedNotification.of(delivery.payload());
      pushers.byId(planned.pusherId()).ifPresent(pusher -> {
        log.info("removing pusher {} of user {} device {}: its gateway refused it", pusher.pusherId(),
            pusher.userId(), pusher.deviceId());
        pushers.delete(pusher.userId(), pusher.deviceId(), pusher.pusherId());
      });
    }
  }

  // Matrix's gateways answer 200 with the pushkeys they reject (the app was uninstalled).
  private static boolean rejectsPushkey(String body) {
    if (body == null || body.isBlank()) {
      return false;
    }
    try {
      JsonNode rejected = JSON.readTree(body).path("rejected");
      return rejected.isArray() && !rejected.isEmpty();
    } catch (IOException e) {
      return false;
    }
  }
}
