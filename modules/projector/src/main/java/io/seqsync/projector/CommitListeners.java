package io.seqsync.projector;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.errors.InterruptException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the commit listeners on a thread of their own, batch after batch in commit order and each
 * batch's listeners in the order they were added, so that the projector polls and stores its next
 * batch while Redis is updated for the last one (on the projector's thread they delayed every
 * next poll). The queue is bounded: when the listeners fall {@value #CAPACITY} batches behind, the
 * projector waits for them.
 *
 * <p>Thread-safety: {@link #add} before {@link #start()}; {@link #committed} from one thread (the
 * projector's); {@link #close()} from that thread too, after its last batch.
 */
final class CommitListeners implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(CommitListeners.class);
  static final int CAPACITY = 8;
  /** How long the thread waits for a batch before telling the listeners it is idle. */
  static final Duration IDLE_TICK = Duration.ofSeconds(1);
  private static final Runnable STOP = () -> { };

  private final List<CommitListener> listeners = new CopyOnWriteArrayList<>();
  private final BlockingQueue<Runnable> queue = new ArrayBlockingQueue<>(CAPACITY);
  private final ProjectorMetrics metrics;
  private final Thread thread;

  CommitListeners(ProjectorMetrics metrics) {
    this.metrics = metrics;
    this.thread = new Thread(this::run, "seqsync-projector-listeners");
    thread.setDaemon(true);
  }

  void add(CommitListener listener) {
    listeners.add(listener);
  }

  void start() {
    thread.start();
  }

  /** Queues the batch for the listeners; waits while {@value #CAPACITY} batches are queued already. */
  void committed(CommittedBatch batch) {
    if (listeners.isEmpty()) {
      return;
    }
    try {
      queue.put(() -> tell(batch));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptException(e);
    }
  }

  /** Runs what is queued, then stops the thread: every committed batch reaches the listeners. */
  @Override
  public void close() {
    if (thread.getState() == Thread.State.NEW) {
      return;
    }
    try {
      queue.put(STOP);
      thread.join(30_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void run() {
    try {
      for (Runnable next = queue.poll(IDLE_TICK.toMillis(), TimeUnit.MILLISECONDS); next != STOP;
          next = queue.poll(IDLE_TICK.toMillis(), TimeUnit.MILLISECONDS)) {
        if (next == null) {
          listeners.forEach(this::idle);
        } else {
          next.run();
        }
      }
    } catch (InterruptedException e) {
      log.warn("commit listeners interrupted: batches still queued are not told to them");
    }
  }

  private void idle(CommitListener listener) {
    try {
      listener.idle();
    } catch (RuntimeException e) {
      log.warn("commit listener {} failed while idle: {}", listener.getClass().getSimpleName(), e.toString());
    }
  }

  private void tell(CommittedBatch batch) {
    for (CommitListener listener : listeners) {
      long started = System.nanoTime();
      try {
        listener.committed(batch);
      } catch (RuntimeException e) {
        log.warn("commit listener {} failed: {}", listener.getClass().getSimpleName(), e.toString());
      }
      metrics.listenerRan(listener, System.nanoTime() - started);
    }
  }
}
