package io.seqsync.ingress.push;

import io.seqsync.events.ConvId;
import io.seqsync.ingress.api.AccessControl;
import io.seqsync.ingress.http.TimedCache;
import io.seqsync.store.PresenceQueries;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * Typing (docs/design.md, "Typing and presence"): a member's {@code typing} frame becomes one line
 * on the ephemeral channel naming the conversation's other members, and every instance holding a
 * socket of theirs sends them a {@code typing} frame, which their client shows for the timeout the
 * frame carries unless a newer one renews it. A device's frames for a conversation are relayed at
 * most once per interval (the client sends one every few seconds while the person types; more are
 * dropped here, unanswered); a stop is relayed at once. Never written anywhere. Thread-safe.
 */
final class TypingRelay {
  static final String LINE = "T";
  // A group's members are read once per this, however many of them type.
  private static final Duration MEMBERS_CACHE = Duration.ofSeconds(5);

  /** A typing frame: whether the user is typing, and for how long to show it unless renewed. */
  record TypingFrame(String type, String convId, String userId, boolean active, long timeoutMs) {}

  private final AccessControl access;
  private final PresenceQueries queries;
  private final Consumer<String> channel;
  private final PushHub hub;
  private final long intervalNanos;
  private final long timeoutMillis;
  private final TimedCache<String, List<Long>> members = new TimedCache<>(MEMBERS_CACHE, Clock.systemUTC());
  // Per socket, per conversation: when its last typing frame was relayed (System.nanoTime).
  private final Map<String, Map<String, Long>> relayed = new ConcurrentHashMap<>();

  TypingRelay(AccessControl access, PresenceQueries queries, Consumer<String> channel, PushHub hub, Duration interval,
      Duration timeout) {
    this.access = access;
    this.queries = queries;
    this.channel = channel;
    this.hub = hub;
    this.intervalNanos = interval.toNanos();
    this.timeoutMillis = timeout.toMillis();
  }

  /** A typing frame of {@code connection}'s device: relayed, dropped (throttled), or a 4xx (not a member). */
  void typing(PushConnection connection, ConvId convId, boolean active) {
    Map<String, Long> mine = relayed.computeIfAbsent(connection.id, id -> new ConcurrentHashMap<>());
    long now = System.nanoTime();
    Long last = mine.get(convId.value());
    if (active ? last != null && now - last < intervalNanos : last == null) {
      return; // throttled, or a stop of nothing relayed
    }
    access.requireMember(connection.caller, convId);
    if (active) {
      mine.put(convId.value(), now);
    } else {
      mine.remove(convId.value());
    }
    long userId = connection.caller.userId();
    String recipients = recipients(convId).stream().filter(member -> member != userId).map(String::valueOf)
        .collect(Collectors.joining(","));
    if (!recipients.isEmpty()) {
      channel.accept(String.join("\t", LINE, recipients, convId.value(), Long.toString(userId), active ? "1" : "0"));
    }
  }

  void closed(PushConnection connection) {
    relayed.remove(connection.id);
  }

  /** A typing line from any instance: the recipients' sockets here get the frame. */
  void heard(String[] fields) {
    String frame = PushFrames.json(new TypingFrame("typing", fields[2], fields[3], fields[4].equals("1"), timeoutMillis));
    Arrays.stream(fields[1].split(",")).map(Long::valueOf)
        .forEach(recipient -> hub.connectionsOf(recipient).forEach(connection -> connection.offer(frame)));
  }

  private List<Long> recipients(ConvId convId) {
    if (convId.kind() == ConvId.Kind.DIRECT) {
      return convId.directUsers();
    }
    return members.get(convId.value(), () -> queries.members(convId.value()));
  }
}
