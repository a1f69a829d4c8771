package io.seqsync.bench.peer;

import com.fasterxml.jackson.databind.JsonNode;
import io.seqsync.bench.BenchSupport;
import io.seqsync.testkit.ApiClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.BitSet;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A seqsync client device as API.md describes it: a {@code /v1/stream} WebSocket whose pushes it
 * records, and whose first frame (the handshake) names the conversations with something it lacks,
 * which it then pages from the first seq it misses, {@code fetchers} conversations at a time. When
 * the stream drops (a killed server, or the server dropping a device that does not keep up with
 * its pushes) it connects again every half second, and the new handshake leads it to what it
 * missed meanwhile.
 */
final class SeqsyncDevice implements WebSocket.Listener, AutoCloseable {
  private final SeqsyncPeer peer;
  private final Peer.Receiver receiver;
  private final ApiClient http;
  private final String auth;
  private final BitSet[] held;
  private final HttpClient wsClient;
  // Reconnecting never waits behind the pages of an earlier handshake.
  private final ExecutorService reconnector = Executors.newSingleThreadExecutor(BenchSupport.daemonThreads("bench-reconnect-"));
  private final ExecutorService gapFetchers;
  private final StringBuilder partial = new StringBuilder();
  // Liveness as the library's connection has it (clients/js, connection.js), in seconds not tens:
  // a ping once the socket was quiet this long, and a socket that answers nothing after it is dead.
  private static final long QUIET_NANOS = TimeUnit.SECONDS.toNanos(2);
  private static final long PONG_NANOS = TimeUnit.SECONDS.toNanos(3);
  private final ScheduledExecutorService watchdog =
      Executors.newSingleThreadScheduledExecutor(BenchSupport.daemonThreads("bench-watchdog-"));
  private volatile long lastFrame = System.nanoTime();
  private volatile long pingSent;
  private final AtomicInteger deadSockets = new AtomicInteger();
  private final AtomicInteger handshakes = new AtomicInteger();
  private final AtomicInteger pagesFailed = new AtomicInteger();
  private volatile String lastFailure;
  private volatile boolean closed;
  private volatile WebSocket socket;

  private SeqsyncDevice(SeqsyncPeer peer, Peer.Receiver receiver, ApiClient http, int conversations, int fetchers) {
    this.gapFetchers = Executors.newFixedThreadPool(fetchers, BenchSupport.daemonThreads("bench-gaps-"));
    this.peer = peer;
    this.receiver = receiver;
    this.auth = peer.auth(receiver);
    this.http = http.as(auth.substring(7));
    this.held = new BitSet[conversations];
    for (int k = 0; k < conversations; k++) {
      held[k] = new BitSet();
    }
    this.wsClient = HttpClient.newBuilder()
        .executor(Executors.newFixedThreadPool(2, BenchSupport.daemonThreads("bench-ws-"))).build();
  }

  static SeqsyncDevice connect(SeqsyncPeer peer, Peer.Receiver receiver, ApiClient http) {
    SeqsyncDevice device = new SeqsyncDevice(peer, receiver, http, peer.conversations(), peer.fetchers());
    device.open();
    device.watchdog.scheduleWithFixedDelay(() -> {
      try {
        device.checkAlive();
      } catch (RuntimeException e) { // one escaping would end the schedule for good
        device.lastFailure = "watchdog: " + e;
      }
    }, 1, 1, TimeUnit.SECONDS);
    return device;
  }

  private void open() {
    lastFrame = System.nanoTime(); // the watchdog leaves a socket being opened alone
    while (!closed) {
      try {
        socket = wsClient.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(5))
            .buildAsync(URI.create("ws://127.0.0.1:" + peer.port() + "/v1/stream?access_token=" + auth.substring(7)), this)
            .get(10, TimeUnit.SECONDS);
        lastFrame = System.nanoTime();
        return;
      } catch (Exception e) {
        BenchSupport.sleep(500);
      }
    }
  }

  // A server that drops the device for not keeping up ends the connection without a close frame;
  // seen here, the JDK's client then told the listener nothing, and the device waited for good.
  private void checkAlive() {
    WebSocket current = socket;
    long now = System.nanoTime();
    if (current == null || closed || now - lastFrame < QUIET_NANOS) {
      return;
    }
    if (pingSent < lastFrame) {
      pingSent = now;
      current.sendText("{\"type\":\"ping\"}", true);
    } else if (now - pingSent > PONG_NANOS) {
      deadSockets.incrementAndGet();
      current.abort();
      reconnect(current);
    }
  }

  @Override
  public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
    long now = System.nanoTime();
    lastFrame = now;
    partial.append(data);
    if (last) {
      try {
        JsonNode frame = ApiClient.JSON.readTree(partial.toString());
        switch (frame.path("type").asText()) {
          case "message" -> hold(frame.path("message"), now);
          case "sync" -> {
            handshakes.incrementAndGet();
            frame.path("conversations").forEach(conversation -> gapFetchers.execute(() -> fetchGap(conversation)));
          }
          default -> { }
        }
      } catch (java.io.IOException e) {
        // not a frame of the API: ignored
      }
      partial.setLength(0);
    }
    webSocket.request(1);
    return null;
  }

  private void hold(JsonNode message, long now) {
    long seq = message.path("seq").asLong();
    String convId = message.path("convId").asText();
    int k = SeqsyncPeer.sender(convId);
    synchronized (held[k]) {
      held[k].set((int) seq);
    }
    Deliveries.arrived(message.path("clientMsgId").asText(), convId + "#" + seq, seq, now);
  }

  private void fetchGap(JsonNode conversation) {
    String convId = conversation.path("convId").asText();
    long latestSeq = conversation.path("latestSeq").asLong();
    int k = SeqsyncPeer.sender(convId);
    // A page refused (503 while the server catches up, a dropped connection) is asked for again, as
    // a client would, half a second later and then less often, until the gap the handshake named is
    // filled: the stream may stay up for good, so no later handshake would name it again.
    for (long backoff = 500; !closed; backoff = Math.min(backoff * 2, 5_000)) {
      long missing;
      synchronized (held[k]) {
        missing = held[k].nextClearBit(1);
      }
      if (missing > latestSeq) {
        return;
      }
      try {
        fetchAfter(http, convId, missing - 1, this);
        return;
      } catch (Exception e) {
        pagesFailed.incrementAndGet();
        lastFailure = e.getMessage();
        BenchSupport.sleep(backoff);
      }
    }
  }

  /** Handshakes, pages refused or failed, the last failure: for the progress lines. */
  String state() {
    return String.format("device: %d handshakes, %d dead sockets given up, %d pages failed%s", handshakes.get(),
        deadSockets.get(), pagesFailed.get(),
        lastFailure == null ? "" : " (last: " + lastFailure + ")");
  }

  /** Pages {@code convId} from after {@code seq} to its end, recording each message (into {@code device} too, if any). */
  static void fetchAfter(ApiClient http, String convId, long seq, SeqsyncDevice device) {
    long after = seq;
    boolean more = true;
    while (more) {
      ApiClient.Response page = http.get("/v1/conversations/" + convId + "/messages?after=" + after + "&limit=50");
      long now = System.nanoTime();
      if (page.status() != 200) {
        throw new IllegalStateException("GET " + convId + " after " + after + ": " + page.status() + " " + page.body());
      }
      JsonNode body = page.body();
      for (JsonNode message : body.path("messages")) {
        if (device != null) {
          device.hold(message, now);
        } else {
          Deliveries.arrived(message.path("clientMsgId").asText(), convId + "#" + message.path("seq").asLong(),
              message.path("seq").asLong(), now);
        }
        after = Math.max(after, message.path("seq").asLong());
      }
      more = body.path("hasMore").asBoolean(false) && body.path("messages").size() > 0;
    }
  }

  @Override
  public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
    reconnect(webSocket);
    return null;
  }

  @Override
  public void onError(WebSocket webSocket, Throwable error) {
    reconnect(webSocket);
  }

  // Once per socket that ended, whichever of onClose, onError and the watchdog told (or all of them).
  private void reconnect(WebSocket ended) {
    if (!closed) {
      reconnector.execute(() -> {
        if (socket == ended) {
          partial.setLength(0);
          open();
        }
      });
    }
  }

  @Override
  public void close() {
    closed = true;
    WebSocket current = socket;
    if (current != null) {
      current.abort();
    }
    watchdog.shutdownNow();
    reconnector.shutdownNow();
    gapFetchers.shutdownNow();
  }
}
