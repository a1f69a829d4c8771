package io.seqsync.bench.peer;

import com.fasterxml.jackson.databind.JsonNode;
import io.seqsync.bench.BenchSupport;
import io.seqsync.testkit.ApiClient;
import io.seqsync.testkit.StreamClient;
import java.net.http.HttpClient;
import java.util.BitSet;
import java.util.concurrent.ExecutorService;
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
final class SeqsyncDevice implements AutoCloseable {
  // Liveness as the library's connection has it (clients/js, connection.js), in seconds not tens:
  // a ping once the socket was quiet this long, and a socket that answers nothing after it is dead.
  private static final long QUIET_NANOS = TimeUnit.SECONDS.toNanos(2);
  private static final long PONG_NANOS = TimeUnit.SECONDS.toNanos(3);
  private final SeqsyncPeer peer;
  private final ApiClient http;
  private final BitSet[] held;
  private final HttpClient ws = HttpClient.newBuilder()
      .executor(Executors.newFixedThreadPool(2, BenchSupport.daemonThreads("bench-ws-"))).build();
  private final ExecutorService gapFetchers;
  private final AtomicInteger deadSockets = new AtomicInteger();
  private final AtomicInteger handshakes = new AtomicInteger();
  private final AtomicInteger pagesFailed = new AtomicInteger();
  private volatile long lastFrame = System.nanoTime();
  private volatile String lastFailure;
  private volatile boolean closed;

  private SeqsyncDevice(SeqsyncPeer peer, Peer.Receiver receiver, ApiClient http) {
    this.peer = peer;
    this.http = http.as(peer.auth(receiver).substring(7));
    this.gapFetchers = Executors.newFixedThreadPool(peer.fetchers(), BenchSupport.daemonThreads("bench-gaps-"));
    this.held = new BitSet[peer.conversations()];
    for (int k = 0; k < held.length; k++) {
      held[k] = new BitSet();
    }
  }

  static SeqsyncDevice connect(SeqsyncPeer peer, Peer.Receiver receiver, ApiClient http) {
    SeqsyncDevice device = new SeqsyncDevice(peer, receiver, http);
    BenchSupport.daemonThreads("bench-device-").newThread(() -> device.stayConnected(peer.auth(receiver).substring(7)))
        .start();
    return device;
  }

  // A server that drops the device for not keeping up ends the connection without a close frame;
  // the JDK's client then tells nothing, so a quiet socket is pinged and given up when it stays quiet.
  private void stayConnected(String token) {
    while (!closed) {
      try (StreamClient stream = StreamClient.tapped(ws, peer.port(), token, this::frame)) {
        lastFrame = System.nanoTime();
        for (long pingSent = 0; !closed && !stream.isClosed(); BenchSupport.sleep(250)) {
          long now = System.nanoTime();
          if (now - lastFrame >= QUIET_NANOS && pingSent < lastFrame) {
            pingSent = now;
            stream.trySend("{\"type\":\"ping\"}");
          } else if (now - lastFrame >= QUIET_NANOS && now - pingSent > PONG_NANOS) {
            deadSockets.incrementAndGet();
            break;
          }
        }
      } catch (RuntimeException refused) {
        lastFailure = "connect: " + refused.getMessage();
      }
      BenchSupport.sleep(500);
    }
  }

  private void frame(JsonNode frame) {
    long now = System.nanoTime();
    lastFrame = now;
    switch (frame.path("type").asText()) {
      case "message" -> hold(frame.path("message"), now);
      case "sync" -> {
        handshakes.incrementAndGet();
        frame.path("conversations").forEach(conversation -> gapFetchers.execute(() -> fetchGap(conversation)));
      }
      default -> { }
    }
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
  public void close() {
    closed = true;
    gapFetchers.shutdownNow();
  }
}
