package io.seqsync.ingress.commands;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.seqsync.events.model.Command;
import io.seqsync.events.model.DuplicateCommand;
import io.seqsync.events.model.OutcomeKind;
import io.seqsync.events.model.SendMessage;
import io.seqsync.events.model.StoredOutcome;
import io.seqsync.ingress.http.ApiException;
import io.seqsync.ingress.ops.Latencies;
import io.seqsync.store.MessageQueries;
import io.seqsync.store.StoredMessage;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Submits a command that appends a message (a send, a recall, a group notice) or changes a row (a
 * block) and waits, within the reply budget, for what it produced to be committed in PostgreSQL: registers the commandId, produces the
 * command, waits for its outcome or duplicate reply, then reads the message from PostgreSQL where
 * the outcome does not carry it. Never blocks a thread: the futures complete on the listeners'
 * threads, which also finish what needs no database (a send's announced outcome, a rejection, no
 * answer within the budget), and the reads run on {@code workers}. Thread-safe.
 */
public final class CommandRoundTrip {
  private static final Logger log = LoggerFactory.getLogger(CommandRoundTrip.class);
  private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

  /** How a round trip ends (a failed future carries an {@link ApiException}). */
  public sealed interface Result {
    /** The message is committed and fetchable; duplicate when it is the original of a retry. */
    record Stored(StoredMessage message, boolean duplicate) implements Result {}

    /** Durably accepted, not known to be stored within the budget; msgId when already known. */
    record Accepted(Long msgId) implements Result {}

    /** A command that appends nothing (a block) is stored. */
    record Applied() implements Result {}
  }

  private final CommandPublisher publisher;
  private final ReplyWaiter waiter;
  private final MessageQueries messages;
  private final Duration budget;
  private final Executor workers;
  private final MeterRegistry registry;
  private final Timer sendToSeq;

  public CommandRoundTrip(CommandPublisher publisher, ReplyWaiter waiter, MessageQueries messages, Duration budget,
      Executor workers, MeterRegistry registry) {
    this.publisher = publisher;
    this.waiter = waiter;
    this.messages = messages;
    this.budget = budget;
    this.workers = workers;
    this.registry = registry;
    this.sendToSeq = Latencies.timer(registry, "seqsync.send.seq",
        "from a send's submission to its committed seq, for sends answered with a new message");
  }

  /**
   * Submits {@code command}; completes, normally or not, on a worker thread, where the caller may
   * block (a Javalin route writes its answer with blocking writes).
   */
  public CompletableFuture<Result> submit(Command command) {
    return submitCompletingOnListeners(command).whenCompleteAsync((result, error) -> { }, workers);
  }

  /**
   * Submits {@code command}; completes on whichever thread brought the outcome (a listener's, or
   * the timer's at the budget), so the caller's continuation must never block: for a send whose
   * answer is written asynchronously (a send, served by the Jetty fast path). Handing each send to a worker cost
   * a queue and a thread's wake-up per send; only a read of PostgreSQL is handed to the workers.
   */
  public CompletableFuture<Result> submitCompletingOnListeners(Command command) {
    long submitted = System.nanoTime();
    long deadline = submitted + budget.toNanos();
    command.setCommandId(waiter.route(command.getCommandId()));
    CompletableFuture<Reply> reply = waiter.expect(command.getCommandId());
    CompletableFuture<Result> result = produced(command, () -> reply.cancel(false))
        .thenCompose(written -> reply.completeOnTimeout(null, remaining(deadline), TimeUnit.NANOSECONDS))
        .thenCompose(answer -> resolve(command, answer, deadline));
    result.whenComplete((value, error) -> {
      count(outcomeOf(value, error));
      if (value instanceof Result.Stored stored && !stored.duplicate() && command.getPayload() instanceof SendMessage) {
        sendToSeq.record(System.nanoTime() - submitted, TimeUnit.NANOSECONDS);
      }
    });
    return result;
  }

  /**
   * Submits {@code command} and completes as soon as Kafka acknowledged it, {@link Result.Accepted}
   * without waiting for its outcome (a send asked with {@code Prefer: respond-async}): the command
   * has its place in its partition, so a client may send the conversation's next one.
   */
  public CompletableFuture<Result> submitAccepted(Command command) {
    CompletableFuture<Result> result = produced(command, () -> { }).thenApply(written -> new Result.Accepted(null));
    // Apart from "accepted" (no outcome within the budget), which tells of a slow pipeline.
    result.whenComplete((value, error) -> count(error == null ? "respond_async" : outcomeOf(value, error)));
    return result;
  }

  // Kafka's acknowledgement, or a failed future with 503 kafka_unavailable, or key_store_unavailable
  // when the command's text could not be sealed (after `abandon`).
  private CompletableFuture<RecordMetadata> produced(Command command, Runnable abandon) {
    return publisher.publish(command).handle((metadata, error) -> {
      if (error != null) {
        abandon.run();
        // A down shard refuses every command of its conversations: its probe logs that, once.
        if (!(error instanceof DatabaseUnavailableException)) {
          log.warn("cannot produce command {}: {}", command.getCommandId(), error.toString());
        }
        throw new CompletionException(Unpublished.unavailable(error,
            "the command could not be written to Kafka; retry it (a send with the same clientMsgId)"));
      }
      return metadata;
    });
  }

  // Runs on the thread that completed the reply; a read of PostgreSQL goes to the workers.
  private CompletableFuture<Result> resolve(Command command, Reply reply, long deadline) {
    if (reply == null) {
      return CompletableFuture.completedFuture(new Result.Accepted(null));
    }
    if (reply instanceof Reply.Duplicate duplicate) {
      DuplicateCommand original = duplicate.duplicate();
      return storedOnWorkers(original.getConvId(), original.getSeq(), deadline).thenApply(found -> found
          .<Result>map(message -> new Result.Stored(message, true))
          .orElseGet(() -> new Result.Accepted(original.getMsgId())));
    }
    StoredOutcome outcome = ((Reply.Announced) reply).outcome();
    // An announcement comes after PostgreSQL committed the row, and a send's message is its command
    // plus the outcome's numbers: answered without reading the row back (a query per send). A
    // recall or membership notice carries text the sequencer wrote, so it is read.
    if (outcome.getKind() == OutcomeKind.APPENDED && outcome.getCreateTime() > 0
        && command.getPayload() instanceof SendMessage send) {
      return CompletableFuture.completedFuture(new Result.Stored(StoredMessage.sent(command, send, outcome), false));
    }
    return switch (outcome.getKind()) {
      case APPENDED -> storedOnWorkers(outcome.getConvId(), outcome.getSeq(), deadline).thenApply(found -> found
          .<Result>map(message -> new Result.Stored(message, false))
          .orElseGet(() -> new Result.Accepted(outcome.getMsgId())));
      case REJECTED -> CompletableFuture.failedFuture(Rejections.toApiException(outcome.getReason()));
      case APPLIED -> CompletableFuture.completedFuture(new Result.Applied());
      // Announcements.decode drops the kinds this version does not know.
      case UNKNOWN -> CompletableFuture.failedFuture(new IllegalStateException("an outcome of an unknown kind"));
    };
  }

  private CompletableFuture<Optional<StoredMessage>> storedOnWorkers(String convId, long seq, long deadline) {
    return CompletableFuture.supplyAsync(() -> stored(convId, seq, deadline), workers).thenCompose(Function.identity());
  }

  /**
   * The message at {@code seq} once PostgreSQL has it, or empty at the deadline. Registers for
   * the announcement first and then reads, so an announcement between the two is not missed; reads
   * again every 200 ms as well, since announcements are best effort.
   */
  private CompletableFuture<Optional<StoredMessage>> stored(String convId, long seq, long deadline) {
    CompletableFuture<Optional<StoredMessage>> result = new CompletableFuture<>();
    CompletableFuture<Void> announced = waiter.awaitStored(convId, seq);
    result.whenComplete((value, error) -> announced.cancel(false));
    check(convId, seq, deadline, announced, result);
    return result;
  }

  private void check(String convId, long seq, long deadline, CompletableFuture<Void> announced,
      CompletableFuture<Optional<StoredMessage>> result) {
    if (result.isDone()) {
      return;
    }
    try {
      Optional<StoredMessage> found = messages.bySeq(convId, seq);
      long left = deadline - System.nanoTime();
      if (found.isPresent() || left <= 0) {
        result.complete(found);
        return;
      }
      CompletableFuture<Void> pause = CompletableFuture.runAsync(() -> { },
          CompletableFuture.delayedExecutor(Math.min(left, POLL_NANOS), TimeUnit.NANOSECONDS, workers));
      CompletableFuture<?> wake = announced.isDone() ? pause : CompletableFuture.anyOf(announced, pause);
      wake.whenCompleteAsync((value, error) -> check(convId, seq, deadline, announced, result), workers);
    } catch (RuntimeException e) {
      result.completeExceptionally(e);
    }
  }

  private static long remaining(long deadline) {
    return Math.max(0, deadline - System.nanoTime());
  }

  private static String outcomeOf(Result value, Throwable error) {
    if (value instanceof Result.Stored stored) {
      return stored.duplicate() ? "duplicate" : "stored";
    } else if (value instanceof Result.Applied) {
      return "stored";
    } else if (value instanceof Result.Accepted) {
      return "accepted";
    }
    Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    return cause instanceof ApiException api ? (api.status() == 503 ? "unavailable" : "rejected") : "failed";
  }

  private void count(String outcome) {
    registry.counter("seqsync.ingress.commands", "outcome", outcome).increment();
  }
}
