package io.seqsync.bench.peer;

import io.seqsync.bench.BenchSupport;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Catch-up: the receiver offline while the senders' messages arrive over every conversation; once
 * the server holds them all, the receiver connects and the clock runs until it holds every one
 * (seqsync: the handshake, then pages, {@code fetchers} at a time; ejabberd: its offline messages,
 * delivered after the session's initial presence).
 */
final class CatchUpMeasurement {
  /** One server's catch-up. */
  record Row(String server, int sent, long stored, double fillSeconds, int held, int duplicates, Peer.CatchUp catchUp,
      double cpuPerThousand) {}

  private CatchUpMeasurement() {}

  static List<Row> run(PeerOptions options, List<Peer> peers) throws Exception {
    List<Row> rows = new ArrayList<>();
    for (Peer peer : peers) {
      Row row = catchUp(options, peer);
      System.err.printf("   catch-up %s: %,d messages held of %,d in %.1f s%n", peer.name(), row.held(),
          row.sent(), row.catchUp().seconds());
      rows.add(row);
    }
    return rows;
  }

  private static Row catchUp(PeerOptions options, Peer peer) throws Exception {
    Deliveries deliveries = Deliveries.open("c" + peer.name().charAt(0), options.catchupMessages(), options.conversations());
    try {
      AtomicInteger accepted = new AtomicInteger();
      // At most 1,024 messages unanswered, then the schedule waits: the fill is not what is measured.
      Semaphore inFlight = new Semaphore(1_024);
      long fillStart = System.nanoTime();
      System.err.printf("   %s: %,d messages to the offline receiver at %,d/s%n", peer.name(), deliveries.total, options.fillRate());
      Pacer.run(deliveries, options.fillRate(), -1, () -> { }, i -> {
        inFlight.acquireUninterruptibly();
        peer.send(Peer.Receiver.CATCHUP, i % options.conversations(), deliveries.id(i), Pacer.text(deliveries, i), ok -> {
          if (ok) {
            accepted.incrementAndGet();
          }
          inFlight.release();
        });
      });
      inFlight.tryAcquire(1_024, 2, TimeUnit.MINUTES);
      long stored = peer.awaitStored(Peer.Receiver.CATCHUP, accepted.get(), TimeUnit.MINUTES.toMillis(5));
      double fillSeconds = (System.nanoTime() - fillStart) / 1e9;
      BenchSupport.sleep(2_000);
      double cpuBefore = peer.cpuSeconds();
      Peer.CatchUp catchUp = peer.catchUp(Peer.Receiver.CATCHUP, deliveries);
      double cpu = peer.cpuSeconds() - cpuBefore;
      int held = deliveries.receivedCount(0, deliveries.total);
      return new Row(peer.name(), accepted.get(), stored, fillSeconds, held, deliveries.duplicates(), catchUp,
          held == 0 ? Double.NaN : cpu * 1000 / held);
    } finally {
      deliveries.close();
    }
  }
}
