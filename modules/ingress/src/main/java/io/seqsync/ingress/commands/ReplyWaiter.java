package io.seqsync.ingress.commands;

import io.seqsync.config.KafkaConnection;
import io.seqsync.events.ReplyRoute;
import io.seqsync.events.model.DuplicateCommand;
import io.seqsync.events.model.OutcomeKind;
import io.seqsync.events.model.StoredOutcome;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.util.function.Consumer;

/**
 * Matches commands with what they came to. A send registers its commandId ({@link #expect})
 * before producing the command, then waits on the future: it completes with the projector's
 * {@link StoredOutcome} for that commandId (announced after the rows are committed, on the partition of
 * the announcements topic this instance reads: {@link #route}) or with the sequencer's
 * {@link DuplicateCommand} (the replies topic); each is read {@code read_committed} by a
 * {@link RepliesListener}. Waiters for a stored seq ({@link #awaitStored}) complete when an
 * APPENDED outcome routed here of the conversation reaches that seq.
 * Futures complete on the listener's thread: chain blocking work with an {@code *Async} stage on
 * another executor. An entry leaves the registry when its future completes in any way (a timeout
 * or cancel included). Thread-safe.
 */
public final class ReplyWaiter implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ReplyWaiter.class);
  private final Map<String, CompletableFuture<Reply>> pending = new ConcurrentHashMap<>();
  private final Map<String, Set<Watch>> watches = new ConcurrentHashMap<>();
  private final List<RepliesListener> listeners = new CopyOnWriteArrayList<>();
  // The announcements' partition this instance reads and names in its commands; -1: none yet.
  private volatile int partition = -1;
  private final CountDownLatch firstShare = new CountDownLatch(1);
  private final LongAdder outcomesHeard = new LongAdder();
  private volatile Consumer<StoredOutcome> appended = outcome -> { };

  /** A waiter fed only through {@link #onOutcome} and {@link #onDuplicate}; see {@link #start}. */
  public ReplyWaiter() {}

  /**
   * A waiter that reads the replies topic whole and its group's share of the announcements topic
   * (the ingress instances form the group {@code groupId}); returns once both are read from their
   * ends, or after 30 s without a share (its sends then answer 202 until it has one). The topics
   * must exist.
   */
  public static ReplyWaiter start(KafkaConnection kafka, String repliesTopic, String announcementsTopic,
      String groupId) {
    ReplyWaiter waiter = new ReplyWaiter();
    waiter.listeners.add(RepliesListener.duplicates(kafka, repliesTopic, waiter::onDuplicate));
    waiter.listeners.add(RepliesListener.announcements(kafka, announcementsTopic, groupId, waiter::onOutcome,
        waiter::assigned));
    try {
      if (!waiter.firstShare.await(30, TimeUnit.SECONDS)) {
        log.warn("no partition of {} after 30 s: sends answer 202 until one is assigned", announcementsTopic);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return waiter;
  }

  /**
   * {@code command}'s commandId with this instance's return address (the lowest partition of its
   * share), so that its outcome is announced to this instance alone; unchanged while it has none.
   */
  public String route(String commandId) {
    int current = partition;
    return current < 0 ? commandId : ReplyRoute.routed(current, commandId);
  }

  private void assigned(Collection<TopicPartition> partitions) {
    // Eager rebalancing: each assignment is the whole share. Commands in flight to a partition
    // that moved answer 202 (their outcome goes to its new reader, which does not wait for them).
    partition = partitions.stream().mapToInt(TopicPartition::partition).min().orElse(-1);
    if (partition >= 0) {
      firstShare.countDown();
    } else {
      log.warn("no partition of the announcements for this instance: more instances than partitions");
    }
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
    outcomesHeard.increment();
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

  /** Outcomes announced to this instance since start (its own commands', and some nobody waits for). */
  public long outcomesHeard() {
    return outcomesHeard.sum();
  }

  /** How many commands are waiting for their reply. */
  public int pendingCount() {
    return pending.size();
  }

  /** Whether the listener runs (always false for a waiter not made by {@link #start}). */
  public boolean isListening() {
    return !listeners.isEmpty() && listeners.stream().allMatch(RepliesListener::isRunning);
  }

  @Override
  public void close() {
    listeners.forEach(RepliesListener::close);
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
