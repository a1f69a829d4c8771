package io.seqsync.bench.peer;

import com.fasterxml.jackson.databind.JsonNode;
import io.seqsync.bench.BenchSupport;
import io.seqsync.bench.http.RawHttpClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.BitSet;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

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
  private final RawHttpClient http;
  private final String auth;
  private final BitSet[] held;
  private final HttpClient wsClient;
  // Reconnecting never waits behind the pages of an earlier handshake.
  private final ExecutorService reconnector = Executors.newSingleThreadExecutor(BenchSupport.daemonThreads("bench-reconnect-"));
  private final ExecutorService gapFetchers;
  private final StringBuilder partial = new StringBuilder();
  private volatile boolean closed;
  private volatile WebSocket socket;

  private SeqsyncDevice(SeqsyncPeer peer, Peer.Receiver receiver, RawHttpClient http, int conversations, int fetchers) {
    this.gapFetchers = Executors.newFixedThreadPool(fetchers, BenchSupport.daemonThreads("bench-gaps-"));
    this.peer = peer;
    this.receiver = receiver;
    this.http = http;
    this.auth = peer.auth(receiver);
    this.held = new BitSet[conversations];
    for (int k = 0; k < conversations; k++) {
      held[k] = new BitSet();
    }
    this.wsClient = HttpClient.newBuilder()
        .executor(Executors.newFixedThreadPool(2, BenchSupport.daemonThreads("bench-ws-"))).build();
  }

  static SeqsyncDevice connect(SeqsyncPeer peer, Peer.Receiver receiver, RawHttpClient http) {
    SeqsyncDevice device = new SeqsyncDevice(peer, receiver, http, peer.conversations(), peer.fetchers());
    device.open();
    return device;
  }

  private void open() {
    WebSocket current = socket;
    if (current != null && !current.isInputClosed()) {
      return; // both onError and onClose asked: one socket is enough
    }
    while (!closed) {
      try {
        socket = wsClient.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(5))
            .buildAsync(URI.create("ws://127.0.0.1:" + peer.port() + "/v1/stream?access_token=" + auth.substring(7)), this)
            .get(10, TimeUnit.SECONDS);
        return;
      } catch (Exception e) {
        BenchSupport.sleep(500);
      }
    }
  }

  @Override
  public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
    long now = System.nanoTime();
    partial.append(data);
    if (last) {
      try {
        JsonNode frame = SeqsyncPeer.JSON.readTree(partial.toString());
        switch (frame.path("type").asText()) {
          case "message" -> hold(frame.path("message"), now);
          case "sync" -> {
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
    int k = SeqsyncPeer.sender(convId);
    long missing;
    synchronized (held[k]) {
      missing = held[k].nextClearBit(1);
    }
    // A page refused (503 while the server catches up, a dropped connection) is asked for again, a few
    // times, as a client would; after that the next handshake asks again.
    for (int attempt = 0; missing <= conversation.path("latestSeq").asLong() && attempt < 5 && !closed; attempt++) {
      try {
        fetchAfter(http, auth, convId, missing - 1, this);
        return;
      } catch (Exception e) {
        BenchSupport.sleep(500);
        synchronized (held[k]) {
          missing = held[k].nextClearBit(1);
        }
      }
    }
  }

  /** Pages {@code convId} from after {@code seq} to its end, recording each message (into {@code device} too, if any). */
  static void fetchAfter(RawHttpClient http, String auth, String convId, long seq, SeqsyncDevice device) throws Exception {
    long after = seq;
    boolean more = true;
    while (more) {
      RawHttpClient.Response page = http.send(RawHttpClient.get("/v1/conversations/" + convId + "/messages?after=" + after
          + "&limit=50", auth)).get(30, TimeUnit.SECONDS);
      long now = System.nanoTime();
      if (page.status() != 200) {
        throw new IllegalStateException("GET " + convId + " after " + after + ": " + page.status() + " " + new String(page.body()));
      }
      JsonNode body = SeqsyncPeer.json(page.body());
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
    reconnect();
    return null;
  }

  @Override
  public void onError(WebSocket webSocket, Throwable error) {
    reconnect();
  }

  private void reconnect() {
    if (!closed) {
      partial.setLength(0);
      reconnector.execute(this::open);
    }
  }

  @Override
  public void close() {
    closed = true;
    WebSocket current = socket;
    if (current != null) {
      current.abort();
    }
    reconnector.shutdownNow();
    gapFetchers.shutdownNow();
  }
}
