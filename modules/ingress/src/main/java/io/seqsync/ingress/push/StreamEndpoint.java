package io.seqsync.ingress.push;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.websocket.WsBinaryMessageContext;
import io.javalin.websocket.WsConfig;
import io.javalin.websocket.WsContext;
import io.javalin.websocket.WsMessageContext;
import io.seqsync.events.Commands;
import io.seqsync.events.model.Command;
import io.seqsync.ingress.api.AccessControl;
import io.seqsync.ingress.api.FetchGuard;
import io.seqsync.ingress.api.Lane;
import io.seqsync.ingress.api.PositionRequests;
import io.seqsync.ingress.api.SyncService;
import io.seqsync.ingress.auth.Authentication;
import io.seqsync.ingress.auth.Caller;
import io.seqsync.ingress.auth.Revocations;
import io.seqsync.ingress.auth.VerifiedToken;
import io.seqsync.ingress.commands.CommandPublisher;
import io.seqsync.ingress.http.ApiException;
import io.seqsync.ingress.http.ErrorHandling;
import io.seqsync.ingress.http.Json;
import io.seqsync.ingress.limits.Limit;
import io.seqsync.ingress.limits.Limiter;
import io.seqsync.ingress.limits.SocketLimits;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * GET /v1/stream, the push WebSocket (R1, R15, R19): the first frame is this device's handshake
 * ({@code sync}), then pushed frames. Client frames {@code ack} and {@code read} become commands,
 * {@code ping} is answered {@code pong}; anything else (not JSON, binary, an unknown type, a bad
 * field) gets an error frame and changes nothing. A text frame over Jetty's limit (64 KiB) closes
 * the socket with 1009 (message too big). The handshake runs in the first-screen lane
 * ({@link FetchGuard#admitStreamHandshake}); when the lane is full, or its query is past the
 * statement timeout or PostgreSQL is down, the socket is closed with 1013 (try again later) and
 * the error code as reason, and the client reconnects after its back-off. The sync frame is the
 * handshake's first page: with {@code limited} the client asks for the rest over HTTP. A socket
 * lives no longer than its token: it is closed with {@link #TOKEN_ENDED} ({@code token_expired})
 * when the token expires, and at once ({@code token_revoked}) when its device signs out, on
 * whichever instance holds it.
 *
 * <p>Limits (docs/api.md, "Limits"), checked before anything else: a socket opened faster than
 * the user's rate of openings, or past the user's cap on this instance, is refused before its
 * upgrade with 429 ({@link #admitUpgrade}); past the cap across instances (Redis), it is closed
 * with {@link #TOO_MANY_SOCKETS} before its handshake runs; a newer socket of the same
 * device closes the older one with {@link #REPLACED}. A frame over the socket's rate gets an error
 * frame {@code rate_limited} with {@code retryAfterMs} and changes nothing; a socket that sends
 * {@link #REFUSED_IN_A_ROW} frames in a row past it is closed with 1008 (policy violation). Ack and
 * read frames also take the device's {@code position} tokens, as over HTTP. Frames {@code typing},
 * {@code visibility} and {@code presence} are {@link Liveness}'s.
 */
public final class StreamEndpoint {
  private static final long REGISTRATION_WAIT_MILLIS = 2_000;
  // RFC 6455's registry: the server is overloaded, the client should reconnect later.
  public static final int TRY_AGAIN_LATER = 1013;
  // An application code (4000-4999) mirroring HTTP's 401: reconnect with a new token, not the same one.
  public static final int TOKEN_ENDED = 4401;
  private static final int INTERNAL_ERROR = 1011;
  /** Past the user's sockets (a private code: RFC 6455 leaves 4000-4999 to applications). */
  public static final int TOO_MANY_SOCKETS = 4429;
  /** A newer socket of the same device took over. */
  public static final int REPLACED = 4409;
  public static final int POLICY_VIOLATION = 1008;
  static final int REFUSED_IN_A_ROW = 100;

  private final Authentication authentication;
  private final AccessControl access;
  private final CommandPublisher publisher;
  private final SyncService syncs;
  private final PushHub hub;
  private final FetchGuard fetchGuard;
  private final Limiter limiter;
  private final SocketLimits socketLimits;
  private final ComeBack comeBack;
  private final Liveness liveness;
  private final Map<String, Held> connections = new ConcurrentHashMap<>();
  private final ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor(runnable -> {
    Thread thread = new Thread(runnable, "stream-token-expiry");
    thread.setDaemon(true);
    return thread;
  });

  /**
   * A socket admitted: its connection, its place in the user's sockets, its frames refused in a
   * row, and the timer that closes it when its token expires.
   */
  private record Held(PushConnection connection, SocketLimits.Socket socket, AtomicInteger refusedInARow,
      ScheduledFuture<?> expiry) {}

  public StreamEndpoint(Authentication authentication, AccessControl access, CommandPublisher publisher, SyncService syncs,
      PushHub hub, FetchGuard fetchGuard, Limiter limiter, SocketLimits socketLimits, Revocations revocations,
      Liveness liveness, ComeBack comeBack) {
    this.comeBack = comeBack;
    this.authentication = authentication;
    this.access = access;
    this.publisher = publisher;
    this.syncs = syncs;
    this.hub = hub;
    this.fetchGuard = fetchGuard;
    this.limiter = limiter;
    this.socketLimits = socketLimits;
    this.liveness = liveness;
    revocations.addListener(this::revoked);
  }

  /**
   * Before the upgrade: the user's rate of socket openings (each costs a handshake, whether the
   * socket replaces another or not) and this instance's count of their sockets; a 429
   * {@code rate_limited} {@link ApiException} when either is used up.
   */
  public void admitUpgrade(Caller caller) {
    limiter.check(Limit.SOCKET, caller);
    socketLimits.requireRoom(caller);
  }

  public void configure(WsConfig ws) {
    ws.onConnect(this::connected);
    ws.onMessage(this::received);
    ws.onBinaryMessage(this::receivedBinary);
    ws.onClose(ctx -> closed(ctx));
    ws.onError(ctx -> closed(ctx));
  }

  // Registered before the handshake is computed, so nothing committed in between is missed:
  // what arrives meanwhile is queued behind the sync frame.
  private void connected(WsContext ctx) {
    VerifiedToken token = authentication.token(ctx.header("Authorization"), ctx.queryParam("access_token"));
    Caller caller = token.caller();
    ctx.disableAutomaticPings();
    SocketLimits.Socket socket =
        new SocketLimits.Socket(ctx.sessionId(), caller, () -> ctx.closeSession(REPLACED, "replaced"));
    if (!socketLimits.open(socket)) {
      ctx.closeSession(TOO_MANY_SOCKETS, "too_many_sockets");
      return;
    }
    PushConnection connection = hub.connect(ctx.sessionId(), caller, ctx.session);
    registered(liveness.opened(connection));
    connections.put(ctx.sessionId(), new Held(connection, socket, new AtomicInteger(),
        clock.schedule(() -> end(ctx.sessionId(), "token_expired"),
            Math.max(0, token.expiresAtMillis() - System.currentTimeMillis()), TimeUnit.MILLISECONDS)));
    try (Lane.Permit handshake = fetchGuard.admitStreamHandshake()) {
      connection.start(PushFrames.sync(syncs.sync(caller, Json.MAPPER.createObjectNode())));
    } catch (RuntimeException failure) {
      // A full lane, a statement timeout, PostgreSQL down: the client reconnects after its back-off.
      ApiException refused = ErrorHandling.error(failure, "GET", "/v1/stream");
      closed(ctx);
      if (refused.status() == 503) {
        ctx.send(ComeBack.overloaded(refused.code())); // when to come back, spread: not a storm of retries
      }
      ctx.closeSession(refused.status() == 503 ? TRY_AGAIN_LATER : INTERNAL_ERROR, refused.code());
    }
  }

  // Push routes a notice to the instances the registry names: the socket must be in it before its
  // handshake is read. Redis slow or down: push is paused anyway, the handshake goes on.
  private static void registered(CompletableFuture<Void> registration) {
    try {
      registration.get(REGISTRATION_WAIT_MILLIS, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      // counted and logged by the presence tracker
    }
  }

  private void received(WsMessageContext ctx) {
    Held held = connections.get(ctx.sessionId());
    if (held == null || !admitted(ctx, held)) {
      return;
    }
    PushConnection connection = held.connection();
    try {
      ObjectNode frame = Json.object(ctx.message().getBytes(StandardCharsets.UTF_8));
      String type = Json.string(frame, "type");
      switch (type) {
        case "ping" -> connection.offer(PushFrames.pong());
        case "ack" -> submit(connection, position(connection, frame, true));
        case "read" -> submit(connection, position(connection, frame, false));
        default -> {
          if (!Liveness.handles(type)) {
            throw ApiException.badRequest("unknown_frame",
                "frame type must be ack, read, ping, typing, visibility or presence");
          }
          liveness.frame(connection, type, frame);
        }
      }
    } catch (ApiException e) {
      connection.offer(e.retryAfterSeconds() > 0
          ? PushFrames.limited(e.getMessage(), TimeUnit.SECONDS.toMillis(e.retryAfterSeconds()))
          : PushFrames.error(e.code(), e.getMessage()));
    }
  }

  private void receivedBinary(WsBinaryMessageContext ctx) {
    Held held = connections.get(ctx.sessionId());
    if (held != null && admitted(ctx, held)) {
      held.connection().offer(PushFrames.error("invalid_frame", "frames are JSON text, not binary"));
    }
  }

  // The socket's frame rate: over it, an error frame with the wait; far over it, the socket closed.
  private boolean admitted(WsContext ctx, Held held) {
    long waitMillis = limiter.frame(held.socket().caller().userId(), ctx.sessionId());
    if (waitMillis == 0) {
      held.refusedInARow().set(0);
      return true;
    }
    if (held.refusedInARow().incrementAndGet() >= REFUSED_IN_A_ROW) {
      closed(ctx);
      ctx.closeSession(POLICY_VIOLATION, "rate_limited");
    } else {
      held.connection().offer(PushFrames.limited("too many frames on this socket; the frame was ignored", waitMillis));
    }
    return false;
  }

  private Command position(PushConnection connection, ObjectNode frame, boolean ack) {
    PositionRequests.Position position = PositionRequests.read(frame);
    access.requireMember(connection.caller, position.convId());
    limiter.check(Limit.POSITION, connection.caller);
    Commands commands = new Commands(connection.caller.userId(), connection.caller.deviceId());
    return ack ? commands.ack(position.convId().value(), position.seq())
        : commands.read(position.convId().value(), position.seq());
  }

  private void submit(PushConnection connection, Command command) {
    publisher.publish(command).whenComplete((metadata, error) -> {
      if (error != null) {
        connection.offer(PushFrames.error("kafka_unavailable", "the frame could not be written to Kafka; send it again"));
      }
    });
  }

  private void closed(WsContext ctx) {
    Held held = connections.remove(ctx.sessionId());
    if (held != null) {
      held.expiry().cancel(false);
      hub.disconnect(held.connection());
      liveness.closed(held.connection());
      socketLimits.close(held.socket());
      limiter.socketClosed(held.socket().caller().userId(), ctx.sessionId());
    }
  }

  // Revocations are rare: a scan of the open sockets costs less than an index kept for them.
  private void revoked(Revocations.Revoked revoked) {
    connections.values().stream().filter(held -> revoked.names(held.connection().caller))
        .forEach(held -> held.connection().close(TOKEN_ENDED, "token_revoked"));
  }

  private void end(String sessionId, String reason) {
    Held held = connections.get(sessionId);
    if (held != null) {
      held.connection().close(TOKEN_ENDED, reason);
    }
  }

  /**
   * The server is stopping: every socket gets a {@code reconnect} frame spreading its client's
   * return ({@link ComeBack}) and is closed with 1012 (service restart); new sockets are refused by
   * the stopping server itself.
   */
  public void restarting() {
    comeBack.restarting(connections.values().stream().map(Held::connection).toList());
  }

  /** Stops the expiry timers (the sockets themselves close with the server). */
  public void close() {
    clock.shutdownNow();
  }
}
