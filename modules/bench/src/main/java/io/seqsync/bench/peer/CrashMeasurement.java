package io.seqsync.bench.peer;

import io.seqsync.bench.BenchSupport;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Crash: a stream at {@code crash-rate} to the receiver online on one device; after
 * {@code kill-after-s} the server gets SIGKILL and is started again at once. Every sender keeps
 * an outbox per conversation, as a chat client does: one message at a time, sent again (the same
 * id: seqsync's clientMsgId) half a second after a failure, until the server takes it. Counted at
 * the receiver once the outboxes are empty: messages taken but never received, copies received
 * twice, messages read in their conversation before one sent earlier.
 */
final class CrashMeasurement {
  private static final long RETRY_MILLIS = 500;

  /** One server's crash. */
  record Row(String server, int offered, int accepted, int received, int lost, int duplicates, int redeliveries,
      int outOfOrder, int retries, double downSeconds, long stored, int stillInOutboxes, String clients) {}

  private CrashMeasurement() {}

  static List<Row> run(PeerOptions options, List<Peer> peers) throws Exception {
    List<Row> rows = new ArrayList<>();
    for (Peer peer : peers) {
      Row row = crash(options, peer);
      System.err.printf("   crash %s: %,d accepted, %,d received, %,d lost, %,d duplicated, %,d out of order, down %.1f s%n",
          peer.name(), row.accepted(), row.received(), row.lost(), row.duplicates(), row.outOfOrder(), row.downSeconds());
      rows.add(row);
    }
    return rows;
  }

  private static Row crash(PeerOptions options, Peer peer) throws Exception {
    Deliveries deliveries = Deliveries.open("k" + peer.name().charAt(0), options.crashRate() * options.crashSeconds(),
        options.conversations());
    ScheduledExecutorService retries = Executors.newSingleThreadScheduledExecutor(BenchSupport.daemonThreads("bench-outbox-"));
    Outboxes outboxes = new Outboxes(peer, deliveries, options.conversations(), retries);
    double[] down = new double[1];
    Thread killer = new Thread(() -> {
      BenchSupport.sleep(TimeUnit.SECONDS.toMillis(options.killAfterSeconds()));
      long killed = System.nanoTime();
      System.err.printf("   %s: kill -9%n", peer.name());
      peer.kill();
      try {
        peer.start();
      } catch (Exception e) {
        throw new IllegalStateException(peer.name() + " did not start again", e);
      }
      down[0] = (System.nanoTime() - killed) / 1e9;
      System.err.printf("   %s: serving again after %.1f s%n", peer.name(), down[0]);
    }, "bench-killer");
    try (AutoCloseable device = peer.online(Peer.Receiver.CRASH)) {
      BenchSupport.sleep(1_000);
      killer.start();
      Pacer.run(deliveries, options.crashRate(), -1, () -> { }, outboxes::offer);
      killer.join(TimeUnit.MINUTES.toMillis(5));
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
      for (int tick = 1; outboxes.pending() > 0 && System.nanoTime() < deadline; tick++) {
        BenchSupport.sleep(100);
        if (tick % 100 == 0) {
          System.err.printf("   %s: %,d messages in the outboxes, %,d received; %s%n", peer.name(), outboxes.pending(),
              deliveries.receivedCount(0, deliveries.total), peer.clientState());
        }
      }
      // What is still on its way to the receiver: until it has every accepted message, or 30 s without one more.
      int before = -1;
      for (long quiet = System.nanoTime(); System.nanoTime() - quiet < 30e9; BenchSupport.sleep(200)) {
        int now = deliveries.receivedCount(0, deliveries.total);
        if (now >= outboxes.accepted.get()) {
          break;
        }
        if (now != before) {
          before = now;
          quiet = System.nanoTime();
        }
      }
    } finally {
      retries.shutdownNow();
      deliveries.close();
    }
    int received = deliveries.receivedCount(0, deliveries.total);
    int lost = 0;
    for (int i = 0; i < deliveries.total; i++) {
      lost += outboxes.taken(i) && !deliveries.received(i) ? 1 : 0;
    }
    return new Row(peer.name(), deliveries.total, outboxes.accepted.get(), received, lost, deliveries.duplicates(),
        deliveries.redeliveries(), deliveries.outOfOrder(), outboxes.retries.get(), down[0],
        peer.awaitStored(Peer.Receiver.CRASH, 0, 0), outboxes.pending(), peer.clientState());
  }

  /** A conversation's messages, one in flight at a time, in order; a failed one is sent again. */
  private static final class Outboxes {
    private final Peer peer;
    private final Deliveries deliveries;
    private final ScheduledExecutorService retrying;
    private final List<ArrayDeque<Integer>> queues = new ArrayList<>();
    private final boolean[] busy;
    private final AtomicBoolean[] taken;
    final AtomicInteger accepted = new AtomicInteger();
    final AtomicInteger retries = new AtomicInteger();
    private final AtomicInteger pending = new AtomicInteger();

    Outboxes(Peer peer, Deliveries deliveries, int conversations, ScheduledExecutorService retrying) {
      this.peer = peer;
      this.deliveries = deliveries;
      this.retrying = retrying;
      this.busy = new boolean[conversations];
      this.taken = new AtomicBoolean[deliveries.total];
      for (int c = 0; c < conversations; c++) {
        queues.add(new ArrayDeque<>());
      }
      for (int i = 0; i < deliveries.total; i++) {
        taken[i] = new AtomicBoolean();
      }
    }

    void offer(int i) {
      int k = i % queues.size();
      pending.incrementAndGet();
      boolean sendNow;
      synchronized (queues.get(k)) {
        queues.get(k).addLast(i);
        sendNow = !busy[k];
        busy[k] = true;
      }
      if (sendNow) {
        send(k, i);
      }
    }

    private void send(int k, int i) {
      peer.send(Peer.Receiver.CRASH, k, deliveries.id(i), Pacer.text(deliveries, i), ok -> {
        if (!ok) {
          retries.incrementAndGet();
          retrying.schedule(() -> send(k, i), RETRY_MILLIS, TimeUnit.MILLISECONDS);
          return;
        }
        taken[i].set(true);
        accepted.incrementAndGet();
        pending.decrementAndGet();
        Integer next;
        synchronized (queues.get(k)) {
          queues.get(k).pollFirst();
          next = queues.get(k).peekFirst();
          busy[k] = next != null;
        }
        if (next != null) {
          int following = next;
          // Not on this (client) thread, nor nested in the library's call that reported the answer.
          retrying.execute(() -> send(k, following));
        }
      });
    }

    boolean taken(int i) {
      return taken[i].get();
    }

    int pending() {
      return pending.get();
    }
  }
}
