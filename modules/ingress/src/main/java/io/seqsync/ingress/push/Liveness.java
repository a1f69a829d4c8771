package io.seqsync.ingress.push;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.seqsync.config.PresenceSettings;
import io.seqsync.config.RedisEndpoint;
import io.seqsync.ingress.api.AccessControl;
import io.seqsync.ingress.auth.Caller;
import io.seqsync.ingress.http.Answer;
import io.seqsync.ingress.http.ApiException;
import io.seqsync.ingress.http.ApiRequest;
import io.seqsync.ingress.http.Json;
import io.seqsync.redis.SocketRegistry;
import io.seqsync.store.PresenceQueries;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Supplier;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Typing and presence on the push stream and over HTTP (docs/api.md, "Typing and presence"): the
 * stream's client frames {@code typing}, {@code visibility} and {@code presence}, the stream's
 * opens and closes (which make a user online or offline), and {@code GET /v1/presence},
 * {@code GET} and {@code PUT /v1/presence/settings}. Ephemeral: nothing of it is in the event log;
 * it goes through Redis ({@link SocketRegistry}, and one pub/sub channel). {@link #off()} (an
 * ingress without Redis, in tests) relays nothing and answers 503. Thread-safe.
 */
public final class Liveness implements AutoCloseable {
  /** Most users one presence request or frame may name. */
  static final int MAX_USERS = 200;

  private final PresenceQueries queries;
  private final EphemeralChannel channel;
  private final PresenceTracker presence;
  private final TypingRelay typing;

  private Liveness(PresenceQueries queries, EphemeralChannel channel, PresenceTracker presence, TypingRelay typing) {
    this.queries = queries;
    this.channel = channel;
    this.presence = presence;
    this.typing = typing;
  }

  /**
   * Typing and presence through {@code redis} ({@code endpoint}: its subscription), for the sockets
   * of {@code hub}, registered in {@code sockets}.
   */
  public static Liveness start(PresenceSettings settings, SocketRegistry sockets, UnifiedJedis redis,
      RedisEndpoint endpoint, PresenceQueries queries, AccessControl access, PushHub hub) {
    PresenceTracker[] tracker = new PresenceTracker[1];
    TypingRelay[] relay = new TypingRelay[1];
    EphemeralChannel channel = new EphemeralChannel(redis, endpoint, line -> {
      String[] fields = line.split("\t");
      if (fields[0].equals(PresenceTracker.LINE) && fields.length == 4) {
        tracker[0].heard(fields);
      } else if (fields[0].equals(TypingRelay.LINE) && fields.length == 5) {
        relay[0].heard(fields);
      }
    });
    Consumer<String> publish = channel::publish;
    tracker[0] = new PresenceTracker(sockets, queries, publish, settings.throttle());
    relay[0] = new TypingRelay(access, queries, publish, hub, settings.typingInterval(), settings.typingTimeout());
    return new Liveness(queries, channel, tracker[0], relay[0]);
  }

  /** Neither typing nor presence: an ingress without Redis. */
  public static Liveness off() {
    return new Liveness(null, null, null, null);
  }

  /** True once lines from other instances reach this one (always, when off). */
  public boolean isSubscribed() {
    return channel == null || channel.isSubscribed();
  }

  /** The frame types handled here. */
  static boolean handles(String type) {
    return type.equals("typing") || type.equals("visibility") || type.equals("presence");
  }

  /** Completes once the socket is registered where push looks for it (at once when off). */
  CompletableFuture<Void> opened(PushConnection connection) {
    return presence != null ? presence.opened(connection) : CompletableFuture.completedFuture(null);
  }

  void closed(PushConnection connection) {
    if (presence != null) {
      presence.closed(connection);
      typing.closed(connection);
    }
  }

  /** A client frame of a type {@link #handles} handles; a 4xx {@link ApiException} when it is not valid. */
  void frame(PushConnection connection, String type, ObjectNode frame) {
    requireOn();
    switch (type) {
      case "typing" -> typing.typing(connection, AccessControl.convId(Json.string(frame, "convId")),
          flag(frame, "active", true));
      case "visibility" -> presence.visibility(connection, flag(frame, "hidden", null));
      default -> onRedis(() -> presence.watch(connection, users(frame.get("users"))))
          .forEach((user, seen) -> connection.offer(PushFrames.json(seen.frame(user))));
    }
  }

  /** GET /v1/presence?users=1,2: the presence of each user, as the caller may see it. */
  public Answer read(Caller caller, ApiRequest request) {
    requireOn();
    String users = request.queryParam("users");
    if (users == null || users.isBlank()) {
      throw ApiException.badRequest("missing_parameter", "users is required: user ids separated by commas");
    }
    JsonNode ids = Json.MAPPER.valueToTree(List.of(users.split(",", -1)));
    List<PresenceTracker.PresenceFrame> answer = new ArrayList<>();
    readable(caller, ids).forEach((user, seen) -> answer.add(seen.item(null, user)));
    return Answer.ok(Map.of("presence", answer));
  }

  /** GET /v1/presence/settings: who may see the caller's presence. */
  public Answer settings(Caller caller, ApiRequest request) {
    requireOn();
    return Answer.ok(Map.of("visibility", name(queries.visibility(caller.userId()))));
  }

  /** PUT /v1/presence/settings {visibility: members | nobody}. */
  public Answer changeSettings(Caller caller, ApiRequest request) {
    requireOn();
    String visibility = Json.string(Json.object(request.body()), "visibility");
    PresenceQueries.Visibility chosen = switch (visibility) {
      case "members" -> PresenceQueries.Visibility.MEMBERS;
      case "nobody" -> PresenceQueries.Visibility.NOBODY;
      default -> throw ApiException.badRequest("invalid_field", "visibility must be members or nobody");
    };
    queries.setVisibility(caller.userId(), chosen);
    presence.visibilityChanged(caller.userId());
    return Answer.ok(Map.of("visibility", name(chosen)));
  }

  private Map<Long, PresenceTracker.Seen> readable(Caller caller, JsonNode ids) {
    return onRedis(() -> presence.read(caller.userId(), users(ids)));
  }

  private static <T> T onRedis(Supplier<T> read) {
    try {
      return read.get();
    } catch (JedisException e) {
      throw ApiException.unavailable("redis_unavailable", "presence is unknown while Redis is unavailable; retry");
    }
  }

  private static String name(PresenceQueries.Visibility visibility) {
    return visibility.name().toLowerCase(Locale.ROOT);
  }

  private static Set<Long> users(JsonNode ids) {
    if (ids == null || !ids.isArray() || ids.isEmpty()) {
      throw ApiException.badRequest("invalid_field", "users must be a non-empty array of user ids");
    }
    if (ids.size() > MAX_USERS) {
      throw ApiException.tooLarge("too_many_users", "at most " + MAX_USERS + " users at once");
    }
    Set<Long> users = new LinkedHashSet<>();
    ids.forEach(id -> users.add(Json.id(id, "users", "a user id")));
    return users;
  }

  private static boolean flag(ObjectNode frame, String field, Boolean fallback) {
    JsonNode value = frame.get(field);
    if (value == null && fallback != null) {
      return fallback;
    }
    if (value == null || !value.isBoolean()) {
      throw ApiException.badRequest("invalid_field", field + " must be true or false");
    }
    return value.booleanValue();
  }

  private void requireOn() {
    if (presence == null) {
      throw ApiException.unavailable("presence_unavailable", "typing and presence need Redis, which this server lacks");
    }
  }

  @Override
  public void close() {
    if (presence != null) {
      presence.close();
      channel.close();
    }
  }
}
