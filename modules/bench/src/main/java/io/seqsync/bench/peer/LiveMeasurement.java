package io.seqsync.bench.peer;

import io.seqsync.bench.BenchSupport;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.seqsync.bench.Latencies;
import java.util.Map;
import org.HdrHistogram.Histogram;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Live delivery: the receiver online on one device, the senders' messages offered open-loop at a
 * rate; delivered per second at the receiver, send → receive latency, and the server's CPU per
 * 1,000 delivered messages. The servers take turns going first from one rate to the next; a
 * server far below a rate runs no higher one, and one still delivering a minute after a schedule
 * ended is restarted, so that its backlog does not run in the other server's phase.
 */
final class LiveMeasurement {
  /** One server at one offered rate. */
  record Row(String server, int rate, double deliveredPerSecond, int measured, int missing, int rejected, int duplicates,
      int outOfOrder, @JsonIgnore Histogram latencies, double cpuPerThousand, boolean drained) {
    @JsonProperty
    Map<String, Object> latency() {
      return Latencies.summary(latencies);
    }

    /** Far below the offered rate: the higher rates are not run on this server. */
    boolean saturated() {
      return deliveredPerSecond < 0.8 * rate;
    }

    /** At the offered rate, nearly everything delivered, p99 within 200 ms. */
    boolean holds() {
      return delivers() && latencies.getValueAtPercentile(99) <= 200_000;
    }

    /** At the offered rate, nearly everything delivered, however late. */
    boolean delivers() {
      return deliveredPerSecond >= 0.95 * rate && missing <= measured / 100;
    }
  }

  private LiveMeasurement() {}

  /**
   * 15 s at the lowest rate on each server, not reported, up to four times until the server keeps
   * up (p99 within a second): the JIT, the connections, the consumer groups' assignments and the
   * stores' caches get going before anything is measured. A cold JVM on a busy machine needs more.
   */
  static void warmUp(PeerOptions options, List<Peer> peers) throws Exception {
    int rate = options.rates().stream().min(Integer::compare).orElse(200);
    try (AutoCloseable devices = online(peers)) {
      for (Peer peer : peers) {
        double previous = 0;
        for (int round = 0; round < 4; round++) {
          Row row = phase(options, peer, "w" + round + peer.name().charAt(0), rate, 5, 10);
          System.err.printf("   warm-up %s %,d/s: %,.0f/s delivered, p99 %.1f ms%n", peer.name(), rate,
              row.deliveredPerSecond(), row.latencies().getValueAtPercentile(99) / 1e3);
          restartIfBehind(peer, row);
          // Warm, or no better than the round before: more rounds would not change what is measured.
          if ((row.latencies().getValueAtPercentile(99) <= 1_000_000 && !row.saturated()) || row.deliveredPerSecond() < 1.2 * previous) {
            break;
          }
          previous = row.deliveredPerSecond();
        }
      }
    }
  }

  /** A device of the live receiver online on every server, until closed. */
  private static AutoCloseable online(List<Peer> peers) throws Exception {
    List<AutoCloseable> devices = new ArrayList<>();
    for (Peer peer : peers) {
      devices.add(peer.online(Peer.Receiver.LIVE));
    }
    BenchSupport.sleep(2_000);
    return () -> {
      for (AutoCloseable device : devices) {
        device.close();
      }
    };
  }

  static List<Row> run(PeerOptions options, List<Peer> peers) throws Exception {
    List<Row> rows = new ArrayList<>();
    Set<String> saturated = new HashSet<>();
    try (AutoCloseable devices = online(peers)) {
      for (int r = 0; r < options.rates().size(); r++) {
        int rate = options.rates().get(r);
        // The first rate also warms up the JIT, the connections and the stores: twice the warm-up.
        int warmup = (r == 0 ? 2 : 1) * options.warmupSeconds();
        for (int p = 0; p < peers.size(); p++) {
          Peer peer = peers.get((p + r) % peers.size());
          if (saturated.contains(peer.name())) {
            continue;
          }
          Row row = phase(options, peer, "l" + r + peer.name().charAt(0), rate, warmup, options.durationSeconds());
          System.err.printf("   live %s %,d/s: %,.0f/s delivered, p50 %.1f ms p99 %.1f ms max %.1f ms, missing %,d,"
                  + " %.2f CPU s per 1,000%n", peer.name(), rate, row.deliveredPerSecond(), row.latencies().getValueAtPercentile(50) / 1e3,
              row.latencies().getValueAtPercentile(99) / 1e3, row.latencies().getMaxValue() / 1e3, row.missing(), row.cpuPerThousand());
          rows.add(row);
          if (row.saturated()) {
            saturated.add(peer.name());
          }
          restartIfBehind(peer, row);
        }
      }
    }
    return rows;
  }

  /** A server still delivering a minute after its schedule starts afresh: its backlog would take CPU from the next phase. */
  private static void restartIfBehind(Peer peer, Row row) throws Exception {
    if (!row.drained()) {
      System.err.printf("   %s still delivering a minute after the schedule: restarted%n", peer.name());
      peer.kill();
      peer.start();
      peer.awaitSenders(180_000);
    }
  }

  private static Row phase(PeerOptions options, Peer peer, String tag, int rate, int warmupSeconds, int durationSeconds)
      throws Exception {
    int warmup = rate * warmupSeconds;
    Deliveries deliveries = Deliveries.open(tag, warmup + rate * durationSeconds, options.conversations());
    AtomicInteger rejected = new AtomicInteger();
    AtomicInteger accepted = new AtomicInteger();
    double[] cpu = new double[2];
    long[] window = new long[2];
    try {
      long start = Pacer.run(deliveries, rate, warmup, () -> {
        window[0] = System.nanoTime();
        cpu[0] = peer.cpuSeconds();
      }, i -> peer.send(Peer.Receiver.LIVE, i % options.conversations(), deliveries.id(i), Pacer.text(deliveries, i),
          ok -> (ok ? accepted : rejected).incrementAndGet()));
      window[1] = start + (long) (deliveries.total * 1e9 / rate);
      cpu[1] = peer.cpuSeconds();
      // The messages still on their way: until every accepted one arrived, 15 s without one more, or a minute.
      boolean drained = false;
      int before = -1;
      long drainEnd = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
      for (long quiet = System.nanoTime(); System.nanoTime() - quiet < 15e9 && System.nanoTime() < drainEnd;
          BenchSupport.sleep(100)) {
        int now = deliveries.receivedCount(0, deliveries.total);
        if (now >= accepted.get() && accepted.get() + rejected.get() >= deliveries.total) {
          drained = true;
          break;
        }
        if (now != before) {
          before = now;
          quiet = System.nanoTime();
        }
      }
      int delivered = deliveries.arrivedBetween(window[0], window[1]);
      double seconds = (window[1] - window[0]) / 1e9;
      int measured = deliveries.total - warmup;
      // A counted process that ended inside the window takes its CPU with it (ServerCpu): seen at
      // 5,000/s as a negative total, which says nothing of the rate, so none is given.
      double cpuSeconds = cpu[1] - cpu[0];
      return new Row(peer.name(), rate, delivered / seconds, measured,
          measured - deliveries.receivedCount(warmup, deliveries.total), rejected.get(), deliveries.duplicates(),
          deliveries.outOfOrder(), deliveries.latencies(warmup, deliveries.total),
          delivered == 0 || cpuSeconds < 0 ? Double.NaN : cpuSeconds * 1000 / delivered, drained);
    } finally {
      deliveries.close();
    }
  }
}
