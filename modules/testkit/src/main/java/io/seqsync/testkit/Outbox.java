package io.seqsync.testkit;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ObjIntConsumer;

/**
 * A client's outbox as API.md asks for: a send not answered 200 is sent again with the same
 * clientMsgId, to the next app instance, until it is answered 200 with its seq. Each new message
 * starts at the next instance in turn, so a load spreads over them all. After a refusal,
 * a cut connection or no answer it waits {@code firstRetry}, doubling up to 8 times that; after a
 * 202 (durably accepted, its seq not known yet) 10 times {@code firstRetry}, since asking sooner
 * only adds duplicates for the sequencer to answer.
 */
public final class Outbox implements AutoCloseable {
  /** What became of one message: when it was first tried, accepted (200 or 202) and stored (200); nanoTime. */
  public record Delivery(String convId, String clientMsgId, long seq, int attempts, boolean firstAttemptFailed,
      long firstTried, long accepted, long stored) {}

  private final List<ApiClient> apps;
  private final long firstRetryMillis;
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "outbox-retry");
        thread.setDaemon(true);
        return thread;
      });
  private final AtomicLong failures = new AtomicLong();
  private final AtomicLong messages = new AtomicLong();
  private volatile boolean closed;
  private volatile ObjIntConsumer<String> onAnswer = (convId, status) -> { };

  /** {@code apps}: one client per app instance, tried in turn. */
  public Outbox(List<ApiClient> apps, long firstRetryMillis) {
    this.apps = List.copyOf(apps);
    this.firstRetryMillis = firstRetryMillis;
  }

  /** Sends until a 200; the future completes with its seq (never exceptionally, unless closed first). */
  public CompletableFuture<Delivery> send(String convId, String clientMsgId, String text) {
    CompletableFuture<Delivery> done = new CompletableFuture<>();
    int first = (int) (messages.getAndIncrement() % apps.size());
    attempt(new Attempt(convId, clientMsgId, text, System.nanoTime(), done), first, 1, -1, false);
    return done;
  }

  /** Tells {@code listener} every attempt's answer: its convId and status (0: no answer, a cut connection). */
  public Outbox onAnswer(ObjIntConsumer<String> listener) {
    this.onAnswer = listener;
    return this;
  }

  /** Attempts that failed (any answer but 200, or none) and were sent again. */
  public long failures() {
    return failures.get();
  }

  private record Attempt(String convId, String clientMsgId, String text, long firstTried,
      CompletableFuture<Delivery> done) {}

  private void attempt(Attempt a, int app, int attempt, long accepted, boolean firstFailed) {
    if (closed) {
      a.done().completeExceptionally(new IllegalStateException("outbox closed"));
      return;
    }
    apps.get(app % apps.size()).sendText(a.convId(), a.clientMsgId(), a.text()).whenComplete((response, error) -> {
      int status = error == null ? response.status() : 0;
      long now = System.nanoTime();
      onAnswer.accept(a.convId(), status);
      long acceptedAt = accepted < 0 && (status == 200 || status == 202) ? now : accepted;
      if (status == 200) {
        a.done().complete(new Delivery(a.convId(), a.clientMsgId(), response.seq(), attempt, firstFailed, a.firstTried(),
            acceptedAt, now));
        return;
      }
      failures.incrementAndGet();
      long pause = status == 202 ? 10 * firstRetryMillis : firstRetryMillis << Math.min(attempt - 1, 3);
      try {
        timer.schedule(() -> attempt(a, app + 1, attempt + 1, acceptedAt, firstFailed || attempt == 1), pause,
            TimeUnit.MILLISECONDS);
      } catch (java.util.concurrent.RejectedExecutionException closing) {
        a.done().completeExceptionally(closing);
      }
    });
  }

  @Override
  public void close() {
    closed = true;
    timer.shutdownNow();
  }
}
