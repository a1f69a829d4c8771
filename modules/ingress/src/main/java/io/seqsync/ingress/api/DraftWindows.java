package io.seqsync.ingress.api;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.seqsync.events.model.Command;
import io.seqsync.ingress.auth.Caller;
import io.seqsync.ingress.http.Answer;
import io.seqsync.ingress.http.ApiRequest;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drafts coalesced per device and conversation (docs/api.md, "Limits"): a draft PUT when none was
 * written within the window is written at once and opens a window of {@code limits.draft.window};
 * a PUT inside it is checked (4xx as ever), answered 202 {@code coalesced} and held, replacing any
 * held before it; when the window ends the last one held is written and opens the next window. So
 * a device typing writes at most one draft event a window per conversation, and the last draft
 * wins. A held draft lives in this instance's memory only: if the instance dies inside the window
 * it is lost, and the conversation keeps the draft written before it. Thread-safe.
 */
public final class DraftWindows implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DraftWindows.class);

  private final PositionEndpoints positions;
  private final long windowMillis;
  // Per device and conversation whose window is open: the draft held for its end (null: none).
  private final Map<String, Held> open = new ConcurrentHashMap<>();
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
    Thread thread = new Thread(runnable, "draft-windows");
    thread.setDaemon(true);
    return thread;
  });
  private final Counter coalesced;

  /** What is held in an open window: the command to write at its end, or none. */
  private record Held(Command command) {
    static final Held NOTHING = new Held(null);
  }

  public DraftWindows(PositionEndpoints positions, Duration window, MeterRegistry registry) {
    this.positions = positions;
    this.windowMillis = window.toMillis();
    this.coalesced = Counter.builder("seqsync.drafts.coalesced")
        .description("draft PUTs held in their window and replaced or written at its end").register(registry);
  }

  /** PUT /v1/conversations/{convId}/draft, coalesced. */
  public CompletableFuture<Answer> draft(Caller caller, ApiRequest request) {
    Command command = positions.draftCommand(caller, request);
    if (windowMillis == 0) {
      return positions.write(command);
    }
    String key = caller.userId() + "\n" + caller.deviceId() + "\n" + request.pathParam("convId");
    boolean[] opened = {false};
    open.compute(key, (k, held) -> {
      opened[0] = held == null;
      return opened[0] ? Held.NOTHING : new Held(command);
    });
    if (!opened[0]) {
      coalesced.increment();
      return CompletableFuture.completedFuture(Answer.json(202, new Views.PositionsAccepted(1, "coalesced")));
    }
    schedule(key);
    return positions.write(command);
  }

  private void schedule(String key) {
    timer.schedule(() -> windowEnded(key), windowMillis, TimeUnit.MILLISECONDS);
  }

  // Writes what was held and opens the next window; closes the window when nothing was held.
  private void windowEnded(String key) {
    Command[] due = {null};
    open.computeIfPresent(key, (k, held) -> {
      due[0] = held.command();
      return due[0] == null ? null : Held.NOTHING;
    });
    if (due[0] == null) {
      return;
    }
    schedule(key);
    positions.write(due[0]).whenComplete((answer, failure) -> {
      if (failure != null) {
        log.warn("a coalesced draft could not be written to Kafka: {}", failure.toString());
      }
    });
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
