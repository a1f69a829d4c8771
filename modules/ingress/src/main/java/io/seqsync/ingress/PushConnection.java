package io.seqsync.ingress;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;
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
  private final ArrayDeque<String> queue = new ArrayDeque<>();
  private boolean started;
  private boolean writing;
  private boolean closed;

  PushConnection(String id, Caller caller, Session session, Executor writer) {
    this.id = id;
    this.caller = caller;
    this.session = session;
    this.writer = writer;
  }

  /** Sends {@code syncFrame} first, then whatever was queued meanwhile. */
  synchronized void start(String syncFrame) {
    queue.addFirst(syncFrame);
    started = true;
    writeNext();
  }

  /** Queues a frame; drops the connection when its queue is full. False when this call dropped it. */
  synchronized boolean offer(String frame) {
    if (closed) {
      return true;
    }
    if (queue.size() >= MAX_QUEUED) {
      log.info("push connection of user {} device {} cannot keep up: dropped", caller.userId(), caller.deviceId());
      drop();
      return false;
    }
    queue.add(frame);
    writeNext();
    return true;
  }

  synchronized void drop() {
    closed = true;
    queue.clear();
    session.disconnect();
  }

  private void writeNext() {
    if (!started || writing || closed || queue.isEmpty()) {
      return;
    }
    writing = true;
    // The continuation runs on the writer pool: a write that completes at once must not recurse.
    try {
      session.sendText(queue.poll(), Callback.from(() -> writer.execute(this::written), error -> failed()));
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
  }
}
