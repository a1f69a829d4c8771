package io.seqsync.ingress.push;

import io.micrometer.core.instrument.Timer;
import io.seqsync.ingress.auth.Caller;
import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One device's push socket: a bounded queue of frames with at most one write in flight, so a
 * slow or dead socket never blocks the thread that fans frames out, nor any other socket. When
 * the queue overflows the connection is dropped: the device reconnects and pulls what it missed
 * (pull is the safety net, R7). Frames queued before {@link #start} wait behind the sync frame.
 * Thread-safe.
 */
final class PushConnection {
  static final int MAX_QUEUED = 256;
  private static final Logger log = LoggerFactory.getLogger(PushConnection.class);

  final String id;
  final Caller caller;
  private final Session session;
  private final Executor writer;
  private final Timer latency;
  private final ArrayDeque<Frame> queue = new ArrayDeque<>();
  private boolean started;
  private boolean writing;
  private boolean closed;
  private Closing closing;

  private record Closing(int code, String reason, Runnable done) {}

  /** A frame, and the createTime of the message it pushes (0: none), for the push latency. */
  private record Frame(String text, long messageCreateTime) {}

  PushConnection(String id, Caller caller, Session session, Executor writer, Timer latency) {
    this.id = id;
    this.caller = caller;
    this.session = session;
    this.writer = writer;
    this.latency = latency;
  }

  /** Sends {@code syncFrame} first, then whatever was queued meanwhile. */
  synchronized void start(String syncFrame) {
    queue.addFirst(new Frame(syncFrame, 0));
    started = true;
    writeNext();
  }

  /** Queues a frame; drops the connection when its queue is full. False when this call dropped it. */
  synchronized boolean offer(String frame) {
    return offer(frame, 0);
  }

  /**
   * Queues the frame of a message created (numbered by the sequencer) at {@code messageCreateTime};
   * its push latency is recorded once the socket took it.
   */
  synchronized boolean offer(String frame, long messageCreateTime) {
    if (closed) {
      return true;
    }
    if (queue.size() >= MAX_QUEUED) {
      log.info("push connection of user {} device {} cannot keep up: dropped", caller.userId(), caller.deviceId());
      drop();
      return false;
    }
    queue.add(new Frame(frame, messageCreateTime));
    writeNext();
    return true;
  }

  synchronized void drop() {
    closed = true;
    queue.clear();
    session.disconnect();
  }

  /** Closes the socket with {@code code} and {@code reason}, dropping what is queued. */
  synchronized void close(int code, String reason) {
    closed = true;
    queue.clear();
    session.close(code, reason, Callback.NOOP);
  }

  /**
   * Drops what is queued, sends {@code lastFrame} (after the write in flight, if any; at once when
   * the sync frame has not gone yet) and then closes the socket with {@code code} and {@code reason};
   * {@code done} runs once the close is sent or the socket turned out dead.
   */
  synchronized void closeAfter(String lastFrame, int code, String reason, Runnable done) {
    if (closed) {
      done.run();
      return;
    }
    queue.clear();
    queue.add(new Frame(lastFrame, 0));
    started = true;
    closing = new Closing(code, reason, done);
    writeNext();
  }

  private void writeNext() {
    if (closing != null && !writing && queue.isEmpty() && !closed) {
      closed = true;
      Closing last = closing;
      session.close(last.code(), last.reason(), Callback.from(last.done(), error -> last.done().run()));
      return;
    }
    if (!started || writing || closed || queue.isEmpty()) {
      return;
    }
    writing = true;
    // The continuation runs on the writer pool: a write that completes at once must not recurse.
    try {
      Frame frame = queue.poll();
      session.sendText(frame.text(), Callback.from(() -> {
        if (frame.messageCreateTime() > 0) {
          latency.record(Math.max(0, System.currentTimeMillis() - frame.messageCreateTime()), TimeUnit.MILLISECONDS);
        }
        writer.execute(this::written);
      }, error -> failed()));
    } catch (RuntimeException e) { // closed meanwhile: never let it reach the fan-out
      failed();
    }
  }

  private synchronized void written() {
    writing = false;
    writeNext();
  }

  private synchronized void failed() {
    writing = false;
    closed = true;
    queue.clear();
    if (closing != null) {
      closing.done().run();
    }
  }
}
