package io.seqsync.ingress.push;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * When a closed socket's client should come back (issue 40): a {@code reconnect} frame, sent just
 * before the server closes the socket, {@code {"type":"reconnect","reason","afterMs","spreadMs"}}:
 * reconnect after {@code afterMs} plus a delay drawn uniformly from {@code [0, spreadMs)}, and keep
 * drawing from that window (not a growing back-off) until a handshake succeeds. A stopping server
 * spreads its sockets over {@code sockets / rate} seconds, so that the next one (or another
 * instance) takes them back at the rate it can handshake instead of all at once; a full lane spreads
 * the refused socket over {@link #OVERLOAD_SPREAD_MS}, instead of a 503 storm of retries.
 */
public final class ComeBack {
  /** Close codes: RFC 6455's "service restart" and "try again later". */
  public static final int RESTARTING = 1012;
  public static final int OVERLOADED = StreamEndpoint.TRY_AGAIN_LATER;
  /** Spread of a socket refused by a full lane: about the lane's wait (2 s) twice over, so the queue drains between. */
  static final long OVERLOAD_AFTER_MS = 1_000;
  static final long OVERLOAD_SPREAD_MS = 4_000;
  /** Bounds of a stopping server's spread: at least a second, at most a minute. */
  static final long MIN_SPREAD_MS = 1_000;
  static final long MAX_SPREAD_MS = 60_000;
  /** How long a stopping server waits for its sockets to take their last frame. */
  static final long FLUSH_MS = 2_000;

  record ReconnectFrame(String type, String reason, long afterMs, long spreadMs) {}

  private final int reconnectRate;

  /** {@code reconnectRate}: the handshakes a second a restarted server is spread to. */
  public ComeBack(int reconnectRate) {
    this.reconnectRate = reconnectRate;
  }

  static String overloaded(String reason) {
    return PushFrames.json(new ReconnectFrame("reconnect", reason, OVERLOAD_AFTER_MS, OVERLOAD_SPREAD_MS));
  }

  /** The window a stopping server with {@code sockets} open spreads them over. */
  long restartSpreadMs(int sockets) {
    return Math.max(MIN_SPREAD_MS, Math.min(MAX_SPREAD_MS, sockets * 1_000L / reconnectRate));
  }

  /**
   * Tells every one of {@code sockets} to come back within the restart window and closes it with
   * {@link #RESTARTING}; returns once they all took it or {@link #FLUSH_MS} passed.
   */
  void restarting(List<PushConnection> sockets) {
    String frame = PushFrames.json(new ReconnectFrame("reconnect", "restarting", 0, restartSpreadMs(sockets.size())));
    CountDownLatch closed = new CountDownLatch(sockets.size());
    for (PushConnection socket : sockets) {
      AtomicBoolean once = new AtomicBoolean();
      socket.closeAfter(frame, RESTARTING, "restarting", () -> {
        if (once.compareAndSet(false, true)) {
          closed.countDown();
        }
      });
    }
    try {
      closed.await(FLUSH_MS, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
