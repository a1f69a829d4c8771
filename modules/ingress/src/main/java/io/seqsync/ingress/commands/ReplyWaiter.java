package io.seqsync.ingress.commands;

import io.seqsync.config.KafkaConnection;
import io.seqsync.events.model.DuplicateCommand;
import io.seqsync.events.model.OutcomeKind;
import io.seqsync.events.model.StoredOutcome;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Matches commands with what they came to. A send registers its commandId ({@link #expect})
 * before producing the command, then waits on the future: it completes with the projector's
 * {@link StoredOutcome} for that commandId (announced on the announcements topic after the rows are
 * committed) or with the sequencer's {@link DuplicateCommand} (the replies topic); both are read
 * {@code read_committed} by one {@link RepliesListener}. Waiters for a stored seq
 * ({@link #awaitStored}) complete when any APPENDED outcome of the conversation reaches that seq.
 * Futures complete on the listener's thread: chain blocking work with an {@code *Async} stage on
 * another executor. An entry leaves the registry when its future completes in any way (a timeout
 * or cancel included). Thread-safe.
 */
public final class ReplyWaiter implements AutoCloseable {
  private final Map<String, CompletableFuture<Reply>> pending = new ConcurrentHashMap<>();
  private final Map<String, Set<Watch>> watches = new ConcurrentHashMap<>();
  private volatile RepliesListener listener;
  private volatile Consumer<StoredOutcome> appended = outcome -> { };

  /** A waiter fed only through {@link #onOutcome} and {@link #onDuplicate}; see {@link #start}. */
  public ReplyWaiter() {}

  /**
   * A waiter that reads the replies and announcements topics at {@code kafka}; returns
   * once it reads both from their ends (the topics must exist).
   */
  public static ReplyWaiter start(KafkaConnection kafka, String repliesTopic, String announcementsTopic) {
    ReplyWaiter waiter = new ReplyWaiter();
    waiter.listener = new RepliesListener(kafka, repliesTopic, announcementsTopic, waiter::onDuplicate,
        waiter::onOutcome);
    return waiter;
  }

  /** Registers {@code commandId}: call before producing the command. */
  public CompletableFuture<Reply> expect(String commandId) {
    CompletableFuture<Reply> reply = new CompletableFuture<>();
    if (pending.putIfAbsent(commandId, reply) != null) {
      throw new IllegalStateException("already waiting for command " + commandId);
    }
    reply.whenComplete((value, error) -> pending.remove(commandId, reply));
    return reply;
  }

  /**
   * Completes when an APPENDED outcome of {@code convId} at {@code seq} or above is announced
   * (the watermark reached it: the message at {@code seq} is committed). Only what is announced
   * after this call counts, so check the store after registering.
   */
  public CompletableFuture<Void> awaitStored(String convId, long seq) {
    Watch watch = new Watch(seq, new CompletableFuture<>());
    watches.compute(convId, (key, set) -> {
      Set<Watch> result = set == null ? ConcurrentHashMap.newKeySet() : set;
      result.add(watch);
      return result;
    });
    watch.future.whenComplete((value, error) -> watches.computeIfPresent(convId, (key, set) -> {
      set.remove(watch);
      return set.isEmpty() ? null : set;
    }));
    return watch.future;
  }

  /**
   * Hands every APPENDED outcome to {@code listener} before any send waiting for it is answered
   * (the read replicas' routing notes what this instance told a client is committed).
   */
  public void onAppended(Consumer<StoredOutcome> listener) {
    this.appended = listener;
  }

  /** An outcome the projector announced. */
  public void onOutcome(StoredOutcome outcome) {
    if (outcome.getKind() == OutcomeKind.APPENDED) {
      appended.accept(outcome);
    }
    // Removed before it completes: what completes it may answer the client at once.
    CompletableFuture<Reply> reply = pending.remove(outcome.getCommandId());
    if (reply != null) {
      reply.complete(new Reply.Announced(outcome));
    }
    if (outcome.getKind() == OutcomeKind.APPENDED) {
      Set<Watch> set = watches.get(outcome.getConvId());
      if (set != null) {
        set.stream().filter(watch -> watch.seq <= outcome.getSeq()).forEach(watch -> watch.future.complete(null));
      }
    }
  }

  /** A duplicate reply the sequencer produced. */
  public void onDuplicate(DuplicateCommand duplicate) {
    CompletableFuture<Reply> reply = pending.remove(duplicate.getCommandId());
    if (reply != null) {
      reply.complete(new Reply.Duplicate(duplicate));
    }
  }

  /** How many commands are waiting for their reply. */
  public int pendingCount() {
    return pending.size();
  }

  /** Whether the listener runs (always false for a waiter not made by {@link #start}). */
  public boolean isListening() {
    RepliesListener running = listener;
    return running != null && running.isRunning();
  }

  @Override
  public void close() {
    if (listener != null) {
      listener.close();
    }
  }

  private record Watch(long seq, CompletableFuture<Void> future) {
    // Identity, not value, equality: two sends may wait for the same seq.
    @Override
    public boolean equals(Object other) {
      return this == other;
    }

    @Override
    public int hashCode() {
      return System.identityHashCode(this);
    }
  }
}
